"""Request and response bodies of the HTTP API (pydantic models; they also document the OpenAPI page)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..cards.catalogue import KNOWN_SETS
from .house_cards import MAX_BYTES as HOUSE_MAX_BYTES


#: Sets that can be played alone: the base game, and Twilight Garden as a replacement base game
#: ("the new advancements and vales in Twilight Garden can replace the base game's", file 003).
#: Vale of Magic is an expansion only.
BASE_SETS = ("base", "twilight_garden")


class CreateGame(BaseModel):
    """A new game: seats are numbered from 0; every seat without a bot is a human seat with a token."""

    # strict: true is not 1, 2.0 is not 2, "2" is not 2.
    model_config = ConfigDict(extra="forbid", strict=True)

    players: int = Field(2, ge=2, le=4, description="number of seats, 2 to 4")
    sets: list[str] = Field(["base"], min_length=1, max_length=3,
                            description="card sets: base, vale_of_magic, twilight_garden")
    leaders: bool = Field(False, description="deal leaders (Twilight Garden); 422 if the engine cannot yet")
    ruleset: str = Field("yucata", max_length=32, description="yucata (default), english or german")
    bots: dict[str, str] = Field(
        default_factory=dict,
        description='seat index (as a string) -> bot name from mysticvale.bots.bot_names(), optionally with a '
                    'thinking time in seconds: {"1": "greedy", "2": "ismcts:0.5"}')
    seed: int | None = Field(None, ge=0, lt=2**63,
                             description="fixed seed for reproducible games; refused unless the server runs with "
                                         "--allow-seed (a known seed reveals every hidden order)")
    # issue 15 (people): the creator's own seat and seats anyone with the game link may claim
    creator_seat: int | None = Field(
        None, ge=0, le=3, description="with your personal key (X-Player-Key): the seat you play, claimed for you "
                                      "at once; default the lowest human seat that is not open")
    open_seats: list[int] = Field(
        default_factory=list, max_length=4,
        description="human seats that anyone with the game link may claim (first come); their tokens are given "
                    "to whoever claims them, not to the creator")
    # issue 21 (a place where people meet): the table's name and whether it is listed for everybody
    name: str | None = Field(None, max_length=200,
                             description="the table's name, at most 40 characters (omit: named after the people "
                                         "seated, \"Anna vs. Ben\")")
    public: bool = Field(False, description="list the table among the lobby's open tables, where anyone may take "
                                            "its open seats (needs your personal key and an open seat)")
    # issue 21: the host's own card values
    house_cards: str | None = Field(None, max_length=HOUSE_MAX_BYTES,
                                    description="the text of a card-values file in the catalogue format "
                                                "(docs/catalogue.md) for one of the game's sets, at most 96 KB: "
                                                "the game is played with its values; 422 with `problems` (each "
                                                "with its `line`) if it has any")

    @field_validator("sets")
    @classmethod
    def _sets(cls, v: list[str]) -> list[str]:
        if len(set(v)) != len(v):
            raise ValueError("a set is listed twice")
        if any(len(s) > 32 for s in v):
            raise ValueError("set names are short words such as 'base'")
        if all(s in KNOWN_SETS for s in v) and not any(s in BASE_SETS for s in v):
            raise ValueError("choose a base game: 'base' or 'twilight_garden' (which can replace the base game); "
                             "'vale_of_magic' is an expansion and cannot be played alone")
        return v

    @field_validator("bots")
    @classmethod
    def _bots(cls, v: dict[str, str]) -> dict[str, str]:
        for k, spec in v.items():
            if k not in ("0", "1", "2", "3"):       # not "²" or "٣", which str.isdigit() takes
                raise ValueError(f"bot seat {k[:8]!r} must be a seat index 0-3 written as a string")
            if len(spec) > 40:
                raise ValueError(f"bot spec for seat {k} is too long")
        return v

    @field_validator("open_seats")
    @classmethod
    def _open_seats(cls, v: list[int]) -> list[int]:
        if len(set(v)) != len(v):
            raise ValueError("a seat is listed twice in open_seats")
        if any(not 0 <= s <= 3 for s in v):
            raise ValueError("open_seats are seat indices 0-3")
        return v


class SeatLink(BaseModel):
    seat: int
    token: str | None = Field(description="secret of a human seat (null for a bot seat and an open seat): whoever "
                                          "holds it plays that seat")
    url: str = Field(description="invitation link for a human seat ({public URL}/games/{id}#token=T: the token "
                                 "is in the fragment, which browsers never send to a server); the spectator "
                                 "link for a bot seat and an open seat")
    bot: str | None
    name: str | None = Field(None, description="name of the person holding the seat (the creator's own seat)")
    open: bool = Field(False, description="an open seat: anyone with the game link may claim it")


class CreatedGame(BaseModel):
    id: str
    seats: list[SeatLink]
    spectator_url: str


SEQ_DESCRIPTION = ("the seq of the state the request was made in (required): if the game has moved on, 409 "
                   "(stale) and nothing happens; if this same request was already applied (a retry), the answer "
                   "repeats it with `repeated: true`")
TOKEN_DESCRIPTION = "the seat's token, if not sent in the X-Seat-Token header"


class ActionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    token: str | None = Field(None, min_length=1, max_length=128, description=TOKEN_DESCRIPTION)
    action: str = Field(min_length=1, max_length=200, description="action notation, e.g. 'push', 'buy 2.3'")
    seq: int = Field(ge=0, lt=2**31, description=SEQ_DESCRIPTION)


class UndoRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    token: str | None = Field(None, min_length=1, max_length=128, description=TOKEN_DESCRIPTION)
    seq: int = Field(ge=0, lt=2**31, description=SEQ_DESCRIPTION)


class RematchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    token: str | None = Field(None, min_length=1, max_length=128, description=TOKEN_DESCRIPTION)


class LogEntry(BaseModel):
    index: int
    kind: str
    player: int | None
    text: str


class PlayerInfo(BaseModel):
    seat: int
    bot: str | None


class GameState(BaseModel):
    """What one seat (or a spectator) may know right now."""

    game_id: str
    seat: int | None = Field(description="the seat of the token, null for the spectator view")
    seq: int = Field(description="number of records (actions and undos) so far; send it back with an action")
    observation: dict[str, Any] = Field(description="Game.observe(seat): see mysticvale.engine.observation")
    legal_actions: list[str] = Field(description="action notation; empty unless it is this seat's decision")
    log: list[LogEntry] = Field(description="readable events as this seat may see them")
    players: list[PlayerInfo]
    can_undo: bool


class ChangeResult(GameState):
    """The answer to an action or an undo: the seat's state after it (bot moves may already follow)."""

    applied_seq: int = Field(description="the number of this request's own record; `seq` may be higher when bots "
                                         "moved after it")
    repeated: bool = Field(description="true when this request had already been applied (a retry): nothing "
                                       "changed now")


class GameSummary(BaseModel):
    id: str
    players: int
    seats: list[PlayerInfo]
    current_player: int | None
    phase: str
    round: int
    over: bool
    winners: list[int]


class HouseCardsCheck(BaseModel):
    """A card-values file to check for a game of these sets, before the game is created."""

    model_config = ConfigDict(extra="forbid", strict=True)

    sets: list[str] = Field(["base"], min_length=1, max_length=3, description="the game's card sets")
    text: str = Field(..., max_length=HOUSE_MAX_BYTES, description="the file's text (at most 96 KB)")

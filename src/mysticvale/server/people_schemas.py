"""Request and response bodies of the people, seats and chat API (they document ``/docs`` too)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .chat import MAX_CHARS
from .people import NAME_MAX


class NewPerson(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)   # true is not 1, "2" is not 2

    name: str = Field(min_length=1, max_length=200,
                      description=f"display name: trimmed, at most {NAME_MAX} characters, no control characters")


class Rename(NewPerson):
    pass


class PersonOut(BaseModel):
    id: str = Field(description="the person's id (not a secret, not a credential)")
    name: str


class PersonWithKey(PersonOut):
    key: str = Field(description="the personal key: keep it secret; send it as the X-Player-Key header. The server "
                                 "stores only its digest and cannot show it again")
    link: str = Field(description="personal link that restores this identity on another device: the key is in the "
                                  "URL fragment (#key=...), which browsers never send to a server")


class SettingsIn(BaseModel):
    """Only the fields given change."""

    model_config = ConfigDict(extra="forbid", strict=True)   # true is not 1, "2" is not 2

    email: str | None = Field(None, max_length=320, description="e-mail address, or null to remove it; a new "
                                                                "address must be confirmed through a link mailed to it")
    email_turns: bool | None = Field(None, description="send an e-mail when it becomes my turn (needs an address)")
    sound: bool | None = Field(None, description="play a sound when it becomes my turn (kept for every device)")
    language: Literal["en", "de"] | None = Field(None, description="interface and e-mail language")


class SettingsOut(BaseModel):
    email: str | None
    email_confirmed: bool = Field(description="the address was confirmed through the link mailed to it")
    email_turns: bool
    sound: bool | None
    language: str | None
    email_available: bool = Field(description="this server sends e-mail (it runs with --smtp); without it no e-mail "
                                              "is ever sent, whatever the settings say")
    confirmation_sent: bool = Field(False, description="this request mailed a confirmation link to the new address "
                                                       "(the SMTP server took it)")
    confirmation: Literal["queued", "sent", "retrying", "failed"] | None = Field(
        None, description="how the latest confirmation e-mail to the unconfirmed address went: queued, sent, "
                          "retrying (the SMTP server did not take it; tried again later) or failed (given up: ask "
                          "for the link again); null: none")


class ConfirmEmail(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    code: str = Field(min_length=1, max_length=128, description="the code of the confirmation link (its #code=...)")


class Player(BaseModel):
    seat: int
    name: str | None = Field(description="the name of the person holding the seat (null: nobody has claimed it)")
    bot: str | None
    open: bool = Field(description="an open seat: anyone with the game link may claim it")
    claimed: bool
    you: bool = Field(description="the seat you hold")
    person: str | None = Field(None, description="the holder's public id (their profile: GET /api/people/{id}/profile)")
    rating: int | None = Field(None, description="the holder's rating from games between people (null: none yet)")


class Invitation(BaseModel):
    seat: int
    token: str = Field(description="the seat's token: the invitation link is /games/{id}#token={token}")
    url: str


class MyGame(BaseModel):
    """One of your games, as you may see it."""

    id: str
    url: str = Field(description="link to the game without any secret (the spectator link)")
    seat: int | None = Field(description="the seat you hold; null for a game you created without a seat")
    token: str | None = Field(description="your seat's token, to play it with the game API on any device")
    status: Literal["your_turn", "running", "finished"]
    creator: bool = Field(description="you created this game")
    players: list[Player]
    current_player: int | None = Field(description="the seat to decide now (null once over)")
    phase: str
    round: int
    over: bool
    winners: list[int]
    sets: list[str]
    ruleset: str | None
    leaders: bool
    created_at: float = Field(description="Unix time")
    updated_at: float = Field(description="last activity (a move or a chat message), Unix time")
    chat_messages: int
    last_chat_at: float | None
    invitations: list[Invitation] = Field(description="for the creator: the invitation of every seat nobody has "
                                                      "claimed yet (open seats need none)")
    name: str | None = Field(None, description="the table's name (null: named after the people seated)")
    public: bool = Field(False, description="listed among the lobby's open tables")


class MyGames(BaseModel):
    games: list[MyGame] = Field(description="your turn first, then running, then finished; most recent first")


class ClaimRequest(BaseModel):
    """Exactly one of ``token`` (an invitation) or ``seat`` (an open seat)."""

    model_config = ConfigDict(extra="forbid", strict=True)   # true is not 1, "2" is not 2

    token: str | None = Field(None, min_length=1, max_length=128, description="the seat token of an invitation link")
    seat: int | None = Field(None, ge=0, le=3, description="an open seat's index")

    @model_validator(mode="after")
    def _one(self) -> "ClaimRequest":
        if (self.token is None) == (self.seat is None):
            raise ValueError("give either 'token' (an invitation) or 'seat' (an open seat)")
        return self


class ClaimOut(BaseModel):
    seat: int
    token: str = Field(description="the seat's token, to play it with the game API")
    new: bool = Field(description="false if you already held this seat")
    game: MyGame


class SeatOut(BaseModel):
    seat: int
    bot: str | None
    name: str | None
    open: bool
    claimed: bool


class SeatsOut(BaseModel):
    seats: list[SeatOut]


class ChatPost(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)   # true is not 1, "2" is not 2

    token: str | None = Field(None, min_length=1, max_length=128,
                              description="your seat token, if not sent in the X-Seat-Token header (or send your "
                                          "personal key as X-Player-Key instead)")
    text: str = Field(max_length=MAX_CHARS * 4,
                      description=f"plain text, at most {MAX_CHARS} characters; stored and returned exactly as sent")


class ChatMessage(BaseModel):
    n: int = Field(description="number of the message in this game's chat, from 1")
    seat: int
    name: str | None = Field(description="the writer's name (null: the seat was not claimed by a person)")
    text: str = Field(description="exactly as written: render it as text, never as markup")
    at: float = Field(description="Unix time")


class ChatPage(BaseModel):
    messages: list[ChatMessage]
    last: int = Field(description="the number of the newest message of the game (0: none)")

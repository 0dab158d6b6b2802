"""Request and response bodies of tables, open tables, profiles and replays (they document ``/docs`` too)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from .tables_directory import NAME_MAX


class TablePatch(BaseModel):
    """Only the fields given change."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str | None = Field(None, max_length=NAME_MAX * 4,
                             description=f"the table's name, at most {NAME_MAX} characters; null or empty: named "
                                         f"after the people seated")
    public: bool | None = Field(None, description="listed among the lobby's open tables (anyone may join a free "
                                                  "open seat); false: only people with the link")


class Host(BaseModel):
    person: str | None = Field(description="the host's public id (their profile: GET /api/people/{id}/profile)")
    name: str | None
    rating: int | None = Field(description="the host's rating (null: no rated game yet)")


class TableSeat(BaseModel):
    seat: int
    name: str | None = Field(description="the name of the person holding the seat")
    bot: str | None
    open: bool = Field(description="an open seat: anyone may take it while nobody has")
    claimed: bool
    person: str | None = Field(description="the holder's public id (for the profile)")
    rating: int | None = Field(description="the holder's rating (null: none yet)")


class Table(BaseModel):
    """A game's table as anybody may see it."""

    id: str
    name: str | None = Field(description="the name the host gave (null: named after the people seated)")
    title: str = Field(description="the name to show: the host's, or the people's names (\"Anna vs. Ben\"); clients "
                                   "may make the latter in their own language from `players`")
    public: bool
    host: Host | None
    players: list[TableSeat]
    seats: int
    seats_free: int = Field(description="open seats nobody has taken")
    sets: list[str]
    ruleset: str | None
    leaders: bool
    round: int
    started: bool = Field(description="somebody has made a move")
    over: bool
    created_at: float
    updated_at: float


class Tables(BaseModel):
    tables: list[Table] = Field(description="public tables with a free seat, the newest first")


class StatLine(BaseModel):
    games: int
    won: int


class BotLine(StatLine):
    bot: str = Field(description="the bot's configuration name as the game stored it (greedy, ismcts:0.5, ...)")


class Played(BaseModel):
    played: int
    won: int


class RatingOut(BaseModel):
    value: int = Field(description="1000 + 40 * (mu - 3 sigma): a cautious estimate that starts at 1000")
    games: int = Field(description="rated games (between people, without bots)")
    mu: float
    sigma: float
    provisional: bool = Field(description="fewer than 5 rated games")


class ResultSeat(BaseModel):
    seat: int
    name: str | None
    bot: str | None
    person: str | None
    place: int
    won: bool
    score: int | None
    you: bool = Field(description="the profile's person sat here")


class FinishedGame(BaseModel):
    id: str
    name: str | None = Field(description="the table's name (null: named after its people)")
    seat: int
    place: int
    won: bool
    score: int | None
    finished_at: float
    rated: bool
    rating_change: int | None
    rating_after: int | None
    rounds: int | None
    sets: list[str]
    ruleset: str | None
    leaders: bool
    players: list[ResultSeat]


class Profile(BaseModel):
    id: str
    name: str
    since: float = Field(description="when the name was picked (Unix time)")
    rating: RatingOut | None = Field(description="null before the first rated game")
    games: Played = Field(description="finished games")
    against_people: StatLine = Field(description="finished games with at least one other person (or a seat played "
                                                 "by link) at the table")
    against_bots: list[BotLine] = Field(description="finished games with each kind of bot at the table")
    finished: list[FinishedGame] = Field(description="the most recent finished games first")
    more: bool = Field(description="older finished games follow (ask with offset)")


class ReplayStep(BaseModel):
    """One step of a finished game from one seat's view."""

    game_id: str
    seat: int | None
    step: int = Field(description="0: the setup; n: after the game's first n actions (undone actions are not steps)")
    steps: int
    actor: int | None = Field(description="the seat whose action made this step")
    turn: int = Field(description="index in outline.turns of the turn this step belongs to")
    view: dict[str, Any] = Field(description="as the table's view (protocol 2), with no legal actions")
    log: list[dict[str, Any]] = Field(description="the log as this seat read it at this step")
    outline: dict[str, Any] | None = Field(None, description="with ?outline=true: turns [{step, turn, round, "
                                                             "player}], events (log length at each step), actors")

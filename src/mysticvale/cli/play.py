"""``mysticvale play``: play Mystic Vale in the terminal against bots, or hotseat.

You play one seat (``--seat``, 1 by default); the bots named by ``--bots`` fill the other
seats in order, and any seat left over is played by a human at the same keyboard
(hotseat).  Each human decision shows the table as that seat sees it (only
``Game.observe(seat)``), a log of what happened since that seat's last move, and the
legal actions numbered with their meaning in plain words.  Answer with a number, with
action notation (``buy 2.3``), or with a command: ``help``, ``board``, ``deck``, ``log``,
``save [FILE]``, ``quit``.

``--save FILE`` writes the whole session (the game and the seat/bot configuration,
including each bot's random stream) after every action; ``--load FILE`` resumes it.
Bots are rebuilt by name with their seed and options, and a bot's ``rng`` (an
:class:`~mysticvale.engine.rng.Rng`) is restored, so a resumed game goes on exactly as
it would have without the break; a bot that keeps other memory between decisions
restarts that memory empty.
"""

from __future__ import annotations

import inspect
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

import typer
from rich.console import Console
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from .. import bots as _bots
from ..bots import SeatView, bot_names, make_bot
from ..bots.levels import level
from ..engine.actions import VERBS, Action
from ..engine.game import Game, new_game
from ..engine.rng import Rng, derive_seed
from ..errors import IllegalActionError, InvalidActionError, SaveError
from . import render

#: The ``format`` field of a play-session file (the game inside is an engine save).
SESSION_FORMAT = "mysticvale-play-session"
SESSION_VERSION = 1

COMMANDS: dict[str, str] = {
    "help": "show this help",
    "board": "show the whole table again",
    "deck": "show your deck's contents (no order), your on-deck card and discard pile",
    "deck N": "show every card player N owns (public; not which are in the deck or the discard pile)",
    "log [N]": "show the game log (the last N events if N is given)",
    "save [FILE]": "save the game (when FILE is left out: to --save's file, or the file it was loaded from)",
    "quit": "leave the game (it stays saved if you used --save)",
}


def _player_number(text: str, players: int, default: int) -> int | str:
    """The seat of ``deck N``'s player number (1-based; ``p2`` too), ``default`` when left
    out, or a message saying what was wrong."""
    word = text.strip().lower().removeprefix("p").removeprefix("layer").strip()
    if not word:
        return default
    if word.isdigit() and 1 <= int(word) <= players:
        return int(word) - 1
    return f"'deck {text.strip()}': give a player number from 1 to {players}, e.g. 'deck 2'."


class PlayError(ValueError):
    """Bad options or a session file that cannot be used; the message says why."""


@dataclass
class SeatConfig:
    """Who plays a seat: a human, or a bot by name with its seed and options."""

    bot: str | None = None
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def human(self) -> bool:
        return self.bot is None

    def to_dict(self) -> dict[str, Any]:
        if self.human:
            return {"kind": "human"}
        return {"kind": "bot", "bot": self.bot, "seed": self.seed, "options": dict(self.options)}

    @classmethod
    def from_dict(cls, data: Any) -> "SeatConfig":
        if not isinstance(data, dict) or data.get("kind") not in ("human", "bot"):
            raise PlayError("a seat must be {'kind': 'human'} or {'kind': 'bot', ...}")
        if data["kind"] == "human":
            return cls()
        name, seed, options = data.get("bot"), data.get("seed"), data.get("options", {})
        if not isinstance(name, str) or isinstance(seed, bool) or not isinstance(seed, int) \
                or not isinstance(options, dict):
            raise PlayError("a bot seat needs a 'bot' name, a whole-number 'seed' and an 'options' object")
        return cls(name, seed, dict(options))


def _accepts(name: str, option: str) -> bool:
    """Does bot ``name``'s factory take keyword ``option`` (e.g. ``think``)?  A level takes
    none: it is a fixed configuration."""
    if level(name) is not None:
        return False
    factory = _bots.BOTS[name]
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # pragma: no cover - builtins without a signature
        return False
    return option in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())


class PlaySession:
    """A game plus who plays each seat; drives bots and reads human answers.

    The session never looks at hidden state on behalf of a human: each human prompt shows
    ``observe(seat)`` and ``log(seat)`` of the seat that must act.
    """

    def __init__(self, game: Game, seats: list[SeatConfig], *, seed: int | None = None,
                 save_path: Path | None = None, log_seen: dict[int, int] | None = None,
                 bot_rngs: dict[int, dict] | None = None) -> None:
        if len(seats) != game.players:
            raise PlayError(f"{len(seats)} seats configured for a {game.players}-player game")
        if not any(s.human for s in seats):
            raise PlayError("no seat is played by a human; use 'mysticvale demo' to watch bots play")
        self.game = game
        self.seats = seats
        self.seed = seed
        self.save_path = save_path
        self.log_seen: dict[int, int] = dict(log_seen or {})
        self.loaded_from: Path | None = None   # the file this session was resumed from
        self.bots: dict[int, Any] = {}
        for p, s in enumerate(seats):
            if s.human:
                continue
            bot = make_bot(s.bot, seed=s.seed, **s.options)
            state = (bot_rngs or {}).get(p)
            if state is not None and isinstance(getattr(bot, "rng", None), Rng):
                bot.rng = Rng.from_dict(state)
            self.bots[p] = bot
        self._last_view: dict[int, int] = {}   # seat -> turn number of its last full board
        self._last_human: int | None = None

    # -- building ----------------------------------------------------------------------
    @classmethod
    def new(cls, *, players: int | None, bots: list[str], seed: int, sets: tuple[str, ...], ruleset: str,
            seat: int, think: float | None, save_path: Path | None) -> "PlaySession":
        """A new game: the human at ``seat`` (0-based), bots in the other seats in order."""
        if players is None:
            players = 1 + len(bots) if bots else 2
        if not 2 <= players <= 4:
            raise PlayError(f"a game has 2 to 4 players, not {players}"
                            + (f" (1 human + {len(bots)} bots)" if bots else ""))
        if not 0 <= seat < players:
            raise PlayError(f"--seat must be from 1 to {players}, not {seat + 1}")
        if len(bots) > players - 1:
            raise PlayError(f"{len(bots)} bots do not fit in a {players}-player game with your seat "
                            f"(at most {players - 1})")
        known = bot_names()
        for b in bots:
            if b not in known:
                raise PlayError(f"unknown bot {b!r}; bots: {', '.join(known)}")
        seats = [SeatConfig() for _ in range(players)]
        others = [p for p in range(players) if p != seat]
        for p, name in zip(others, bots):
            options: dict[str, Any] = {}
            if think is not None and _accepts(name, "think"):
                options["think"] = think
            # Each bot gets its own stream, derived from the game seed and its seat.
            seats[p] = SeatConfig(name, derive_seed(seed, f"play-bot-{p}") % (1 << 31), options)
        game = new_game(players=players, seed=seed, sets=sets, ruleset=ruleset)
        return cls(game, seats, seed=seed, save_path=save_path)

    # -- saving --------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The session as JSON-ready data: the engine save plus seats, bot streams, log cursors."""
        rngs = {str(p): b.rng.to_dict() for p, b in self.bots.items() if isinstance(getattr(b, "rng", None), Rng)}
        return {
            "format": SESSION_FORMAT,
            "version": SESSION_VERSION,
            "seed": self.seed,
            "seats": [s.to_dict() for s in self.seats],
            "bot_rngs": rngs,
            "log_seen": {str(k): v for k, v in sorted(self.log_seen.items())},
            "game": self.game.to_json(),
        }

    def save(self, path: Path) -> None:
        """Write the session to ``path`` (atomically: a crash never leaves half a file)."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_dict()), encoding="utf-8")
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: Path, *, save_path: Path | None = None) -> "PlaySession":
        """Resume a session file; :class:`PlayError` says what is wrong with a bad one."""
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise PlayError(f"cannot read {path}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise PlayError(f"{path} is not a saved game (it is not text)") from None
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise PlayError(f"{path} is not a saved game: not valid JSON ({exc})") from None
        if not isinstance(data, dict) or data.get("format") != SESSION_FORMAT:
            raise PlayError(f"{path} is not a saved game of 'mysticvale play' (wrong or missing 'format')")
        if data.get("version") != SESSION_VERSION:
            raise PlayError(f"{path}: session version {data.get('version')!r} is not supported "
                            f"(expected {SESSION_VERSION})")
        try:
            game = Game.from_json(data["game"])
        except KeyError:
            raise PlayError(f"{path}: the saved game is missing") from None
        except SaveError as exc:
            raise PlayError(f"{path}: {exc}") from None
        try:
            seats = [SeatConfig.from_dict(s) for s in data["seats"]]
            log_seen = {int(k): int(v) for k, v in data.get("log_seen", {}).items()}
            rngs = {int(k): v for k, v in data.get("bot_rngs", {}).items()}
            for v in rngs.values():
                Rng.from_dict(v)
            seed = data.get("seed")
        except PlayError as exc:
            raise PlayError(f"{path}: {exc}") from None
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise PlayError(f"{path}: corrupt seat configuration ({type(exc).__name__}: {exc})") from None
        try:
            session = cls(game, seats, seed=seed, save_path=save_path, log_seen=log_seen, bot_rngs=rngs)
            session.loaded_from = path
            return session
        except PlayError as exc:
            raise PlayError(f"{path}: {exc}") from None
        except (ValueError, TypeError) as exc:   # e.g. a bot that no longer exists
            raise PlayError(f"{path}: cannot rebuild the bots: {exc}") from None

    # -- names -------------------------------------------------------------------------
    def seat_name(self, p: int) -> str:
        s = self.seats[p]
        if s.human:
            return render.player_name(p) + (" (you)" if self.human_count == 1 else "")
        lv = level(s.bot)
        # "Player 2 (Druid, bot)": a level by its name (issue 20); another bot by its own
        return f"{render.player_name(p)} ({lv.label() + ', bot' if lv else s.bot})"

    @property
    def human_count(self) -> int:
        return sum(s.human for s in self.seats)

    # -- playing -----------------------------------------------------------------------
    def apply(self, action: Action | str) -> None:
        """Apply one action and autosave (``--save``)."""
        self.game.apply_action(action)
        if self.save_path is not None:
            self.save(self.save_path)

    def play_bots(self, console: Console) -> None:
        """Let bots act until a human must act or the game is over."""
        while not self.game.is_over():
            p = self.game.current_player
            if self.seats[p].human:
                return
            bot = self.bots[p]
            if console.is_terminal:
                with console.status(f"{self.seat_name(p)} is thinking..."):
                    action = bot.act(SeatView(self.game, p))
            else:
                action = bot.act(SeatView(self.game, p))
            self.apply(action)

    def run(self, console: Console, read: Callable[[str], str]) -> int:
        """Play until the game ends or a human quits; returns the exit code."""
        console.print(self.intro())
        try:
            while True:
                self.play_bots(console)
                if self.game.is_over():
                    self.show_end(console)
                    return 0
                outcome = self.human_turn(console, read)
                if outcome == "quit":
                    return 0
        except KeyboardInterrupt:   # Ctrl-C while a bot thinks
            console.print("\nInterrupted: leaving the game.")
            self._say_saved(console)
            return 130

    def intro(self) -> Text:
        obs = self.game.observe(None)
        t = Text("Mystic Vale", style="bold green")
        t.append(f" · {self.game.players} players · sets: {', '.join(obs['sets'])} · {obs['ruleset']} rules")
        if self.seed is not None:
            t.append(f" · seed {self.seed}")
        t.append("\nSeats: " + ", ".join(self.seat_name(p) for p in range(self.game.players)))
        if self.human_count > 1:
            t.append("\nHotseat: the screen says whose turn it is; pass the keyboard to that player.")
        t.append("\nType a number or action notation to act, 'help' for commands.")
        return t

    def human_turn(self, console: Console, read: Callable[[str], str]) -> str:
        """Show the table to the human who must act and read answers until one action is
        applied ("acted") or the player quits ("quit")."""
        game = self.game
        seat = game.current_player
        obs = game.observe(seat)
        if self.human_count > 1 and self._last_human != seat:
            console.print(Rule(f"{render.player_name(seat)}'s turn — pass the keyboard to "
                               f"{render.player_name(seat)}", style="bold cyan"))
        self._last_human = seat
        recent = game.log(seat, self.log_seen.get(seat, 0))
        if recent:
            self.log_seen[seat] = recent[-1]["index"] + 1
        full = self._last_view.get(seat) != obs["turn_number"]
        self._last_view[seat] = obs["turn_number"]
        console.print(render.board(obs, recent=recent, full=full))
        legal = game.legal_actions()
        console.print(render.action_list(legal, obs))
        prompt = f"{render.player_name(seat)}, your choice (1-{len(legal)}, notation, or help): "
        while True:
            try:
                line = read(prompt)
            except (EOFError, KeyboardInterrupt):
                console.print("\nInput ended: leaving the game.")
                self._say_saved(console)
                return "quit"
            text = line.strip()
            if not text:
                console.print(f"Type a number from 1 to {len(legal)}, an action such as "
                              f"'{legal[0]}', or 'help'.")
                continue
            word, _, rest = text.partition(" ")
            word = word.lower()
            rest = rest.strip()
            if word in ("quit", "exit", "q"):
                console.print("Leaving the game.")
                self._say_saved(console)
                return "quit"
            if word in ("help", "?", "h"):
                console.print(help_view())
                continue
            if word == "board":
                console.print(render.board(game.observe(seat), full=True))
                console.print(render.action_list(legal, obs))
                continue
            if word == "deck":
                whose = _player_number(rest, len(obs["players"]), seat)
                if isinstance(whose, str):
                    console.print(whose, style="red")
                else:
                    console.print(render.deck_view(obs, whose))
                continue
            if word == "log":
                self._show_log(console, seat, rest)
                continue
            if word == "save":
                self._save_command(console, rest)
                continue
            if text.isdigit() or (text.startswith("-") and text[1:].isdigit()):
                n = int(text)
                if not 1 <= n <= len(legal):
                    console.print(f"[red]There is no choice {n}:[/red] choose a number from 1 to {len(legal)}.")
                    continue
                action: Action = legal[n - 1]
            else:
                try:
                    action = Action.parse(text)
                except InvalidActionError as exc:
                    console.print(f"[red]Not understood:[/red] {exc}", highlight=False)
                    console.print("Type a number from the list, an action in notation, or 'help'.")
                    continue
            try:
                self.apply(action)
            except IllegalActionError as exc:
                console.print(f"[red]Not allowed:[/red] {exc}", highlight=False)
                continue
            console.print(Text(f"{render.player_name(seat)}: {action} — {render.describe_action(action, obs)}",
                               style="bold"))
            return "acted"

    def _say_saved(self, console: Console) -> None:
        if self.save_path is not None:
            console.print(f"The game is saved in {self.save_path}; resume it with "
                          f"'mysticvale play --load {self.save_path}'.", highlight=False)
        else:
            console.print("The game was not saved (use --save FILE or the 'save FILE' command).")

    def _show_log(self, console: Console, seat: int, arg: str) -> None:
        entries = self.game.log(seat)
        if arg:
            if not arg.isdigit() or int(arg) == 0:
                console.print(f"[red]'log {arg}':[/red] give a positive number of events, e.g. 'log 20'.",
                              highlight=False)
                return
            entries = entries[-int(arg):]
        console.print(render.log_view(entries, title=f"Game log ({len(entries)} events)"))

    def _save_command(self, console: Console, arg: str) -> None:
        target = Path(arg) if arg else (self.save_path or self.loaded_from)
        if target is None:
            console.print("[red]No file to save to:[/red] type 'save FILE', or start with --save FILE.")
            return
        try:
            self.save(target)
        except OSError as exc:
            console.print(f"[red]Could not save to {target}:[/red] {exc.strerror or exc}", highlight=False)
            return
        console.print(f"Saved to {target}; resume with 'mysticvale play --load {target}'.", highlight=False)

    def show_end(self, console: Console) -> None:
        """The end screen: every player's score by source, and the winner(s)."""
        game = self.game
        obs = game.observe(None)
        for p in range(game.players):
            if self.seats[p].human:
                rest = game.log(p, self.log_seen.get(p, 0))
                if rest:
                    console.print(render.log_view(rest, title="The last moves", limit=20))
                break
        console.print(Rule("Game over", style="bold"))
        breakdowns = [game.score_breakdown(p) for p in range(game.players)]
        console.print(render.end_screen(breakdowns, game.winners(), rounds=obs["round"],
                                        names=[self.seat_name(p) for p in range(game.players)]))
        if obs.get("end_triggered"):
            console.print(f"The end was triggered: {render.end_reason(str(obs['end_triggered']))}.",
                          highlight=False)


def help_view() -> Table:
    """Commands and action verbs."""
    tab = Table(title="Help", title_justify="left", show_edge=False)
    tab.add_column("type", style="cyan", no_wrap=True)
    tab.add_column("to")
    tab.add_row("a number", "take that choice from the numbered list")
    for cmd, what in COMMANDS.items():
        tab.add_row(cmd, what)
    tab.add_section()
    for verb, what in VERBS.items():
        tab.add_row(verb, what)
    tab.add_row("", "Examples: 'push', 'buy 2.3', 'buy soil.top', 'buy 1.1 on #7', 'vale 1.4', "
                    "'use #7.2', 'sleeve #7'. Cards are named by #id, market spots by level.position.")
    return tab


def _split_names(text: str | None) -> list[str]:
    if text is None:
        return []
    names = [x.strip() for x in text.split(",")]
    if any(not n for n in names):
        raise PlayError(f"--bots {text!r} has an empty name; write names separated by commas, "
                        f"e.g. 'greedy,random'")
    return names


def command(
    players: Optional[int] = typer.Option(None, help="Number of players, 2 to 4 (default: you plus the bots, "
                                                     "or 2 for hotseat)."),
    bots: Optional[str] = typer.Option(None, help="Bots for the other seats in order, comma-separated: the "
                                                  "levels seedling, wanderer, druid, archdruid (gentlest to "
                                                  "strongest), or random, greedy, ismcts; e.g. druid,wanderer. "
                                                  "'mysticvale bots' describes them. Seats left over are "
                                                  "hotseat humans."),
    seed: Optional[int] = typer.Option(None, help="Seed of the game (default: from the clock, shown at the start)."),
    sets: Optional[str] = typer.Option(None, help="Card sets, comma-separated (default: base)."),
    ruleset: Optional[str] = typer.Option(None, help="Rule set: yucata (default), english or german."),
    think: Optional[float] = typer.Option(None, min=0.0, help="Seconds per decision for bots that search "
                                                              "(ismcts)."),
    save: Optional[Path] = typer.Option(None, help="Save the game to this file after every action."),
    load: Optional[Path] = typer.Option(None, help="Resume a game saved with --save or 'save'."),
    seat: Optional[int] = typer.Option(None, help="Your seat, from 1 (default 1)."),
) -> None:
    """Play Mystic Vale in the terminal against bots, or hotseat with friends."""
    console = Console(highlight=False)
    try:
        if load is not None:
            given = [name for name, v in (("--players", players), ("--bots", bots), ("--seed", seed),
                                          ("--sets", sets), ("--ruleset", ruleset), ("--think", think),
                                          ("--seat", seat)) if v is not None]
            if given:
                raise PlayError(f"{', '.join(given)} cannot be combined with --load: the saved game "
                                f"keeps its own settings")
            session = PlaySession.load(load, save_path=save)
            console.print(f"Resumed {load}.")
        else:
            set_names = tuple(s.strip() for s in (sets or "base").split(",") if s.strip())
            if not set_names:
                raise PlayError("--sets needs at least one card set, e.g. 'base'")
            game_seed = seed if seed is not None else time.time_ns() // 1000 % 1_000_000
            session = PlaySession.new(players=players, bots=_split_names(bots), seed=game_seed,
                                      sets=set_names, ruleset=ruleset or "yucata",
                                      seat=(seat if seat is not None else 1) - 1, think=think, save_path=save)
            if think is not None:
                deaf = sorted({s.bot for s in session.seats if s.bot and "think" not in s.options})
                if deaf:
                    console.print(f"Note: --think does not apply to {', '.join(deaf)}.")
            if save is not None:
                session.save(save)
    except (PlayError, ValueError) as exc:
        console.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(2) from None
    except OSError as exc:
        console.print(f"[red]error:[/red] cannot write {save}: {exc.strerror or exc}", highlight=False)
        raise typer.Exit(2) from None
    code = session.run(console, console.input)
    raise typer.Exit(code)

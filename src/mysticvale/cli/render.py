"""Rendering a game for the terminal with Rich, from an observation only.

Everything here reads the JSON-ready dict of ``Game.observe(seat)`` (its schema is in
:mod:`mysticvale.engine.observation`), the readable log of ``Game.log(seat, since)`` and
the legal actions; nothing reads the full state, so the terminal never shows a player
what their seat may not know.

The main entry points are :func:`board` (the whole table as one seat sees it),
:func:`describe_action` (one legal action in plain words), :func:`action_list`,
:func:`deck_view`, :func:`log_view` and :func:`end_screen`.
"""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from typing import Any, Iterable, Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..engine.actions import VERBS, Action
from ..engine.flow import SPOIL_AT

#: Colour of each symbol (the left side of a card) in the terminal.
SYMBOL_STYLE: dict[str, str] = {
    "mana": "bold yellow",
    "growth": "bold green",
    "decay": "bold red",
    "vp": "bold magenta",
    "animal": "dark_orange",
    "forest": "green4",
    "sky": "deep_sky_blue1",
    "wild": "bold white",
    "guardian": "bold blue",
    "curse": "bold dark_red",
}
#: How each symbol is named on screen.
SYMBOL_WORD: dict[str, str] = {
    "mana": "mana", "growth": "growth", "decay": "decay", "vp": "VP", "animal": "animal",
    "forest": "forest", "sky": "sky", "wild": "wild", "guardian": "guardian", "curse": "curse",
}
_SYMBOL_ORDER = ("mana", "growth", "decay", "vp", "animal", "forest", "sky", "wild", "guardian", "curse")
_PHASES = {"planting": "Planting phase", "harvest": "Harvest phase", "discard": "Discard phase",
           "prep": "Prep phase", "over": "game over"}


#: Why the game end was triggered (``end_triggered`` in an observation), in words.
END_REASONS: dict[str, str] = {
    "vp_pool": "the VP pool ran out",
    "last_level2_vale": "the last level-2 vale entered the vale row",
}


def end_reason(code: str) -> str:
    """An end trigger in words (unknown codes with their underscores turned into spaces)."""
    return END_REASONS.get(code, code.replace("_", " "))


def player_name(seat: int | None) -> str:
    """``Player 1`` for seat 0 (seats are counted from 1 on screen, as in the engine's log)."""
    return "-" if seat is None else f"Player {seat + 1}"


# -- the marker of stand-in cards ------------------------------------------------------
#: After the name of a stand-in: a card standing in for a printed one the rules do not
#: describe (docs/catalogue.md).  A sentence beside the view says so, the browser's words.
MARK = "†"
#: What a stand-in is, in the words the browser's zoom uses (messages "zoom.stand_in").
STAND_IN = "A stand-in for a printed card not described in the rules: its values are estimates."


def marked(view: dict[str, Any]) -> bool:
    """Does this advancement, vale or card view carry the marker?"""
    return bool(view.get("stand_in") or view.get("stand_ins"))


def _named(name: str, view: dict[str, Any], style: str = "") -> Text:
    """A card's name, with the marker when it has one."""
    t = Text(name, style=style)
    if marked(view):
        t.append(f" {MARK}", style="dim")
    return t


def view_notes(view: dict[str, Any]) -> list[tuple[str, str]]:
    """(name, sentence) of the stand-ins on a view: itself, or each advancement of a card."""
    if "stand_ins" in view:
        return [(n, STAND_IN) for n in view.get("stand_ins") or ()]
    if marked(view):
        return [(view["name"], STAND_IN)]
    return []


def notes_text(views: Iterable[dict[str, Any]]) -> Text:
    """The sentences of the marked views, one line per distinct one (``† A, B: sentence``)."""
    by_note: dict[str, list[str]] = {}
    for v in views:
        for name, note in view_notes(v):
            names = by_note.setdefault(note, [])
            if name not in names:
                names.append(name)
    out = Text()
    for note, names in by_note.items():
        if out:
            out.append("\n")
        out.append(f"{MARK} {', '.join(names)}: ", style="dim bold")
        out.append(note, style="dim")
    return out


def _caption(first: str, views: Iterable[dict[str, Any]]) -> Text:
    t = Text(first)
    notes = notes_text(views)
    if notes:
        t.append("\n")
        t.append_text(notes)
    return t


# -- symbols -------------------------------------------------------------------------
def card_symbols(card: dict[str, Any]) -> dict[str, int]:
    """The symbols showing on a field/deck card (``card_view``), only those present."""
    out = {k: int(card.get(k, 0)) for k in ("mana", "growth", "decay", "vp", "guardian", "curse")}
    out.update({k: int(v) for k, v in card.get("spirits", {}).items()})
    return {k: out[k] for k in _SYMBOL_ORDER if out.get(k)}


def symbols_text(symbols: dict[str, int]) -> Text:
    """``2 mana, 1 decay`` with each symbol in its colour; ``-`` when there is none."""
    parts = [(k, v) for k in _SYMBOL_ORDER if (v := symbols.get(k))]
    if not parts:
        return Text("-", style="dim")
    t = Text()
    for i, (k, v) in enumerate(parts):
        if i:
            t.append(", ")
        t.append(f"{v} {SYMBOL_WORD[k]}", style=SYMBOL_STYLE[k])
    return t


def _vp_text(end_vp: int, neg_vp: int) -> Text:
    t = Text()
    if end_vp:
        t.append(f"{end_vp} VP", style="magenta")
    if neg_vp:
        if end_vp:
            t.append(" ")
        t.append(f"-{neg_vp} VP", style="red")
    return t if (end_vp or neg_vp) else Text("-", style="dim")


def vale_cost_text(cost: dict[str, int]) -> Text:
    """A vale's spirit cost, e.g. ``2 forest + 1 any``."""
    parts = [(k, v) for k in ("animal", "forest", "sky", "any") if (v := cost.get(k))]
    if not parts:
        return Text("free", style="dim")
    t = Text()
    for i, (k, v) in enumerate(parts):
        if i:
            t.append(" + ")
        t.append(f"{v} {k}", style=SYMBOL_STYLE.get(k, "bold white"))
    return t


def _card_label(card: dict[str, Any]) -> str:
    return f"#{card['id']} {card['name']}"


# -- the board -----------------------------------------------------------------------
def header(obs: dict[str, Any]) -> Text:
    """One line: round, whose turn, phase, VP pool, end trigger."""
    t = Text()
    t.append(f"Round {obs['round']}", style="bold")
    if obs["over"]:
        t.append(" · the game is over", style="bold red")
    else:
        t.append(f" · {player_name(obs['current_player'])}'s turn", style="bold cyan")
        t.append(f" · {_PHASES.get(obs['phase'], obs['phase'])}")
    t.append(f" · VP pool {obs['vp_pool']}", style="magenta")
    if obs.get("vp_reserve_taken"):
        t.append(f" (+{obs['vp_reserve_taken']} taken from the reserve)", style="magenta")
    if obs.get("end_triggered"):
        t.append(f" · last round: {end_reason(obs['end_triggered'])}", style="bold red")
    t.append(f" · {obs['ruleset']} rules")
    return t


def commons_table(obs: dict[str, Any]) -> Table:
    """The commons: three advancements per level with cost, slot, symbols and text, and
    Fertile Soil."""
    decks = obs["advancement_decks"]
    shown = [c for level in ("1", "2", "3") for c in obs["commons"][level] if c is not None]
    tab = Table(title="Commons (advancements)", title_justify="left", expand=True, show_lines=False,
                caption=_caption("advancement decks left: " + ", ".join(
                    f"level {lv} {decks.get(lv, 0)}" for lv in ("1", "2", "3")), shown),
                caption_justify="left")
    tab.add_column("buy", style="bold", no_wrap=True)
    tab.add_column("advancement", ratio=3)
    tab.add_column("slot", no_wrap=True)
    tab.add_column("cost", justify="right", style="yellow", no_wrap=True)
    tab.add_column("symbols", ratio=3)
    tab.add_column("VP", no_wrap=True)
    tab.add_column("text", ratio=5)
    for level in ("1", "2", "3"):
        row = obs["commons"][level]
        for i, c in enumerate(row, start=1):
            if c is None:
                tab.add_row(f"{level}.{i}", Text("(empty)", style="dim"), "", "", "", "", "",
                            end_section=i == len(row))
                continue
            name = _named(c["name"], c)
            if c.get("eclipse"):
                name.append(" (eclipse)", style="dim")
            if c.get("legendary"):
                name.append(" (legendary)", style="dim")
            tab.add_row(f"{level}.{i}", name, "/".join(c["slots"]), str(c["cost"]),
                        symbols_text(c["symbols"]), _vp_text(c.get("end_vp", 0), c.get("neg_vp", 0)),
                        c.get("text") or "", end_section=i == len(row))
    soil = obs["fertile_soil"]
    tab.add_row("soil.*", "Fertile Soil", "any", str(obs["fertile_soil_cost"]),
                symbols_text({"mana": 1}), "",
                "left: " + ", ".join(f"{slot} {n}" for slot, n in soil.items()))
    return tab


def vales_table(obs: dict[str, Any]) -> Table:
    """The two vale rows with spirit costs and VP."""
    shown = [v for level in ("1", "2") for v in obs["vale_rows"][level] if v is not None]
    tab = Table(title="Vale cards", title_justify="left", expand=True, caption_justify="left",
                caption=_caption(f"vale decks left: level 1 {obs['vale_decks']['1']}, "
                                 f"level 2 {obs['vale_decks']['2']}", shown))
    tab.add_column("buy", style="bold", no_wrap=True)
    tab.add_column("vale", ratio=3)
    tab.add_column("spirit cost", ratio=2)
    tab.add_column("VP", no_wrap=True)
    tab.add_column("text", ratio=5)
    for level in ("1", "2"):
        row = obs["vale_rows"][level]
        for i, v in enumerate(row, start=1):
            last = i == len(row)
            if v is None:
                tab.add_row(f"vale {level}.{i}", Text("(empty)", style="dim"), "", "", "", end_section=last)
                continue
            tab.add_row(f"vale {level}.{i}", _named(v["name"], v), vale_cost_text(v["cost"]),
                        _vp_text(v["end_vp"], v["neg_vp"]), v.get("text") or "", end_section=last)
    return tab


def players_table(obs: dict[str, Any]) -> Group:
    """Every player's tokens, mana token side, deck and discard counts, decay, and vales
    (those bought this turn marked with ``*``)."""
    viewer = obs.get("viewer")
    tab = Table(title="Players", title_justify="left", expand=True)
    tab.add_column("player", no_wrap=True)
    tab.add_column("VP", justify="right", style="magenta", no_wrap=True)
    tab.add_column("curse", justify="right", no_wrap=True)
    tab.add_column("mana token", no_wrap=True)
    tab.add_column("deck", justify="right", no_wrap=True)
    tab.add_column("discard", justify="right", no_wrap=True)
    tab.add_column("field", justify="right", no_wrap=True)
    tab.add_column("decay", justify="right", no_wrap=True)
    tab.add_column("vales", justify="right", no_wrap=True)
    lines = Text()
    for p in obs["players"]:
        seat = p["seat"]
        name = Text(player_name(seat), style="bold cyan" if seat == obs.get("current_player") else "")
        if seat == viewer:
            name.append(" (you)", style="bold")
        if p.get("star"):
            name.append(" ★", style="yellow")
        token = Text("active", style="bold yellow") if p["mana_token_active"] else Text("used", style="dim")
        on_deck = " +1" if p.get("on_deck") else ""
        vale_vp = sum(v["end_vp"] - v["neg_vp"] for v in p["vales"])
        tab.add_row(name, str(p["vp_tokens"]),
                    Text(str(p["curse_tokens"]), style="red" if p["curse_tokens"] else "dim"),
                    token, f"{p['deck_count']}{on_deck}", str(p["discard_count"]),
                    str(len(p["field"])), _decay_text(p["decay"]),
                    f"{len(p['vales'])} ({vale_vp} VP)" if p["vales"] else "0")
        if p.get("harvest_next"):
            if lines:
                lines.append("\n")
            lines.append(f"{player_name(seat)} begins the next turn with the Harvest.", style="bold")
        if p["vales"]:
            if lines:
                lines.append("\n")
            lines.append(f"{player_name(seat)}'s vales: ", style="bold")
            for i, v in enumerate(p["vales"]):
                if i:
                    lines.append(", ")
                lines.append(f"{v['name']}{' ' + MARK if marked(v) else ''} ({v['end_vp'] - v['neg_vp']} VP)")
                if v.get("bought_this_turn"):
                    lines.append(" *just bought*", style="bold yellow")
    return Group(tab, lines) if lines else Group(tab)


def _decay_text(decay: int) -> Text:
    style = "bold red" if decay >= SPOIL_AT - 1 else ("yellow" if decay > 0 else "green")
    return Text(f"{decay}/{SPOIL_AT}", style=style)


def field_table(obs: dict[str, Any], seat: int) -> Table:
    """A player's field, left to right, and the on-deck card last."""
    p = obs["players"][seat]
    who = "Your field" if seat == obs.get("viewer") else f"{player_name(seat)}'s field"
    shown = list(p["field"]) + ([p["on_deck"]] if p.get("on_deck") else []) + list(p.get("aside") or ())
    notes = notes_text(shown)
    tab = Table(title=f"{who} (left to right) and on-deck card", title_justify="left", expand=True,
                caption=notes if notes else None, caption_justify="left")
    tab.add_column("", no_wrap=True)
    tab.add_column("card", ratio=3)
    tab.add_column("symbols", ratio=3)
    tab.add_column("VP at end", no_wrap=True)
    tab.add_column("abilities", ratio=5)
    for i, c in enumerate(p["field"], start=1):
        tab.add_row(str(i), _card_cell(c), symbols_text(card_symbols(c)),
                    _vp_text(c.get("end_vp", 0), c.get("neg_vp", 0)), _abilities(c))
    if p.get("on_deck"):
        c = p["on_deck"]
        tab.add_row(Text("on deck", style="bold reverse"), _card_cell(c), symbols_text(card_symbols(c)),
                    _vp_text(c.get("end_vp", 0), c.get("neg_vp", 0)), _abilities(c), style="on grey15")
    for c in p.get("aside") or ():
        # Revealed and set aside (Lore Keeper): public, not in the field.
        tab.add_row(Text("set aside", style="dim"), _card_cell(c), symbols_text(card_symbols(c)),
                    _vp_text(c.get("end_vp", 0), c.get("neg_vp", 0)), _abilities(c), style="dim")
    if not p["field"] and not p.get("on_deck") and not p.get("aside"):
        tab.add_row("", Text("(empty)", style="dim"), "", "", "")
    return tab


def _card_cell(c: dict[str, Any]) -> Text:
    t = Text(f"#{c['id']} ", style="dim")
    t.append_text(_named(c["name"], c, style="bold"))
    if c.get("free_slots") is not None and len(c["free_slots"]) < 3:
        free = ", ".join(c["free_slots"]) or "none"
        t.append(f"\nfree: {free}", style="dim")
    return t


def _abilities(c: dict[str, Any], *, notes: bool = False) -> Text:
    """A card's ability texts; with ``notes``, the notes of what on it is ours after them."""
    t = Text("\n".join(c["abilities"])) if c.get("abilities") else Text("-", style="dim")
    if notes and marked(c):
        t.append("\n")
        t.append_text(notes_text([c]))
    return t


def spoil_outlook(obs: dict[str, Any], seat: int) -> Text:
    """Decay showing, how much more spoils, and the chance that pushing spoils now.

    The chance counts the cards the next reveal can be: the known top card if the seat
    knows it, otherwise every card of its deck equally (the observation lists the deck's
    contents, never its order), or its discard pile if the deck is empty (it is shuffled
    into a new deck).  A card adds its decay minus its growth.  Abilities that change decay
    while a card is revealed are not counted, so it is a guide, not a promise.
    """
    p = obs["players"][seat]
    decay = p["decay"]
    t = Text("Decay showing: ")
    t.append_text(_decay_text(decay))
    room = SPOIL_AT - decay
    if room <= 0:
        t.append(" — spoiling now", style="bold red")
    else:
        t.append(f" — {room} more decay spoils", style="bold red" if room == 1 else "")
    candidates = _next_reveal_candidates(p)
    pushing = obs["phase"] == "planting" and obs.get("acting_player") == seat and not obs.get("pending")
    if pushing and candidates is not None and p.get("on_deck") is not None and room > 0:
        n = len(candidates)
        bad = sum(1 for c in candidates if c["decay"] - c["growth"] >= room)
        if n:
            pct = round(100 * Fraction(bad, n))
            t.append(f"; if you push, {bad} of {n} possible next cards spoil you ({pct}%)",
                     style="bold red" if 2 * bad > n else ("yellow" if bad else "green"))
    return t


def _next_reveal_candidates(p: dict[str, Any]) -> list[dict[str, Any]] | None:
    deck = p.get("deck")
    if deck is None:
        return None
    known = p.get("known_top") or []
    if known:
        top = known[-1]
        for c in deck:
            if c["id"] == top:
                return [c]
    if deck:
        return list(deck)
    return list(p.get("discard") or [])


def harvest_panel(obs: dict[str, Any]) -> Text | None:
    """The active player's Harvest resources (mana, free spirit symbols, buys), if any."""
    t = obs["turn"]
    if obs["phase"] != "harvest" or "mana" not in t:
        return None
    out = Text(f"{player_name(t['player'])}'s Harvest: ", style="bold")
    out.append(f"{t['mana']} mana", style=SYMBOL_STYLE["mana"])
    out.append(" · spirits free: ")
    out.append_text(symbols_text(t["spirits"]) if any(t["spirits"].values()) else Text("none", style="dim"))
    out.append(f" · advancements bought: {t['advancement_buys']}")
    if t.get("bought"):
        out.append(" (" + ", ".join(t["bought"]) + ")")
    out.append(f" · vales bought: {t['vale_buys']} of {t['vale_limit']}")
    if t.get("upgrades"):
        out.append(" · leaders upgraded: " + ", ".join(f"#{c}" for c in t["upgrades"]))
    if t.get("spoiled"):
        out.append(" · spoiled this turn", style="red")
    return out


def pending_panel(obs: dict[str, Any]) -> RenderableType | None:
    """A decision waiting for an answer, with the cards it shows privately to its player."""
    pd = obs.get("pending")
    if not pd:
        return None
    body = Text(f"{player_name(pd['player'])} is deciding: {pd['description']}")
    if pd.get("cards"):
        body.append("\nCards only you see: " + ", ".join(_card_label(c) for c in pd["cards"]))
    if pd.get("leaders"):
        body.append("\nLeaders to choose from: " + ", ".join(str(x) for x in pd["leaders"]))
    if pd.get("advancement"):
        a = pd["advancement"]
        body.append(f"\nAdvancement you look at: {a['name']}{' ' + MARK if marked(a) else ''} (level {a['level']}, {a['cost']} mana, "
                    f"{'/'.join(a['slots'])} slot)" + (f": {a['text']}" if a.get("text") else ""))
    if pd.get("vale"):
        v = pd["vale"]
        body.append(f"\nVale you look at: {v['name']}{' ' + MARK if marked(v) else ''} ({vale_cost_text(v['cost']).plain}, "
                    f"{v['end_vp'] - v['neg_vp']} VP)" + (f": {v['text']}" if v.get("text") else ""))
    shown = [x for x in (pd.get("advancement"), pd.get("vale")) if x]
    if any(marked(x) for x in shown):
        body.append("\n")
        body.append_text(notes_text(shown))
    return Panel(body, title="Decision", title_align="left", border_style="yellow")


def log_view(entries: Sequence[dict[str, Any]], *, title: str = "What happened",
             limit: int | None = None) -> RenderableType:
    """Log entries (``Game.log``) as plain sentences, the most recent ``limit`` of them."""
    shown = list(entries)
    earlier = 0
    if limit is not None and len(shown) > limit:
        earlier = len(shown) - limit
        shown = shown[-limit:]
    t = Text()
    if earlier:
        t.append(f"({earlier} earlier events: type 'log' to see them)\n", style="dim")
    for i, e in enumerate(shown):
        if i:
            t.append("\n")
        style = "bold cyan" if e.get("kind") == "turn" else ""
        t.append(e["text"], style=style)
    if not shown:
        t.append("(nothing yet)", style="dim")
    return Panel(t, title=title, title_align="left", border_style="blue")


def board(obs: dict[str, Any], *, recent: Sequence[dict[str, Any]] = (), recent_limit: int = 30,
          full: bool = True) -> Group:
    """The table as ``obs['viewer']`` sees it, with the recent log on top.

    ``full=False`` gives the shorter view used between two decisions of the same turn:
    only what the current phase needs (the markets in the Harvest, the field while
    planting, sleeving or discarding).
    """
    viewer = obs.get("viewer")
    phase = obs["phase"]
    parts: list[RenderableType] = []
    if recent:
        parts.append(log_view(recent, title="Since your last move", limit=recent_limit))
    parts.append(header(obs))
    if full or phase == "harvest":
        parts.append(commons_table(obs))
        parts.append(vales_table(obs))
    if full:
        parts.append(players_table(obs))
    focus = viewer if viewer is not None else obs.get("current_player")
    if focus is not None and (full or phase != "harvest" or obs.get("pending")):
        parts.append(field_table(obs, focus))
    if viewer is not None and not obs["over"] and (full or phase in ("planting", "prep")):
        parts.append(spoil_outlook(obs, viewer))
    cur = obs.get("current_player")
    if full and cur is not None and cur != focus:
        parts.append(field_table(obs, cur))
    hp = harvest_panel(obs)
    if hp is not None:
        parts.append(hp)
    pp = pending_panel(obs)
    if pp is not None:
        parts.append(pp)
    return Group(*parts)


# -- actions in plain words ----------------------------------------------------------
_REF = re.compile(r"^#(\d+)(?:\.(\d+)(?:\.(\d+))?)?$")


def _cards_by_id(obs: dict[str, Any]) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    for p in obs["players"]:
        for c in p["field"]:
            out[c["id"]] = c
        if p.get("on_deck"):
            out[p["on_deck"]["id"]] = p["on_deck"]
        for key in ("deck", "discard", "aside"):
            for c in p.get(key) or ():
                out[c["id"]] = c
    pd = obs.get("pending") or {}
    for c in pd.get("cards") or ():
        out[c["id"]] = c
    return out


def _ref_words(ref: str, obs: dict[str, Any], cards: dict[int, dict[str, Any]], seat: int | None) -> str:
    """``#7`` -> ``#7 Cursed Land``; ``#7.2`` -> the ability of layer 2 of card #7;
    ``vale.3`` -> the seat's 3rd vale."""
    m = _REF.match(ref)
    if m:
        card = cards.get(int(m.group(1)))
        if card is None:
            return ref
        if m.group(2) is None:
            return _card_label(card)
        layer = int(m.group(2))
        k = int(m.group(3) or 1)
        text = _ability_of(card, layer, k)
        return f"{text} (on {_card_label(card)})" if text else f"layer {layer} of {_card_label(card)}"
    if ref.startswith("vale.") and seat is not None and ref[5:].isdigit():
        vales = obs["players"][seat]["vales"]
        i = int(ref[5:]) - 1
        if 0 <= i < len(vales):
            v = vales[i]
            return f"vale {v['name']}" + (f" ({v['text']})" if v.get("text") else "")
    return ref


def _ability_of(card: dict[str, Any], layer: int, k: int) -> str | None:
    labels = card.get("advancements") or []
    if not 1 <= layer <= len(labels):
        return None
    name = labels[layer - 1].split("@", 1)[0]
    texts = [a for a in card.get("abilities") or [] if a.startswith(name + ":")]
    if len(texts) >= k:
        return texts[k - 1]
    return texts[0] if texts else None


def _market(spot: str) -> tuple[str, str]:
    """``2.3`` -> (``2``, ``3``); ``soil.top`` -> (``soil``, ``top``)."""
    level, _, pos = spot.partition(".")
    return level, pos


def describe_action(action: Action | str, obs: dict[str, Any]) -> str:
    """One legal action in plain words, e.g. ``buy Aurora (level 2, 6 mana, middle slot)``.

    Uses only the observation of the acting seat; an action this module does not know
    is described by its verb's meaning and its arguments.
    """
    a = action if isinstance(action, Action) else Action.parse(action)
    seat = obs.get("viewer")
    me = obs["players"][seat] if seat is not None else None
    cards = _cards_by_id(obs)
    args = a.args
    if a.verb == "push":
        on = me.get("on_deck") if me else None
        prep = " (your Prep phase goes on)" if obs.get("phase") == "prep" else ""
        return (f"play your on-deck card {_card_label(on)} into your field and reveal the next card{prep}"
                if on else f"play your on-deck card into your field and reveal the next card{prep}")
    if a.verb == "reveal":
        phase = "Prep" if obs.get("phase") == "prep" else "Planting"
        return (f"reveal your next on-deck card (your {phase} phase goes on; the ability you just used "
                "can no longer be taken back)")
    if a.verb == "stop":
        return ("stop your Prep phase here (German rules: more than 2 decay symbols show); "
                "your next turn begins with this field")
    if a.verb == "pass":
        return "stop planting and go to your Harvest phase"
    if a.verb == "buy" and args:
        level, pos = _market(args[0])
        target = ""
        if len(args) == 3 and args[1] == "on":
            price = (obs["turn"].get("prices") or {}).get(str(a))
            cost = f" for {price} mana" if price is not None else " at its discount"
            target = f", to be sleeved on {_ref_words(args[2], obs, cards, seat)}{cost}"
        if level == "soil":
            return (f"buy Fertile Soil for the {pos} slot ({obs['fertile_soil_cost']} mana, 1 mana symbol)"
                    f"{target}")
        row = obs["commons"].get(level)
        if row and pos and pos.isdigit() and 1 <= int(pos) <= len(row) and row[int(pos) - 1]:
            c = row[int(pos) - 1]
            sym = symbols_text(c["symbols"]).plain
            extra = f"; {sym}" if sym != "-" else ""
            return (f"buy {c['name']} (level {level}, {c['cost']} mana, {'/'.join(c['slots'])} slot{extra})"
                    f"{target}")
    if a.verb == "vale" and args:
        level, pos = _market(args[0])
        row = obs["vale_rows"].get(level)
        if row and pos and pos.isdigit() and 1 <= int(pos) <= len(row) and row[int(pos) - 1]:
            v = row[int(pos) - 1]
            vp = v["end_vp"] - v["neg_vp"]
            return f"buy vale {v['name']} (level {level}, {vale_cost_text(v['cost']).plain}, {vp} VP)"
    if a.verb == "token":
        return "flip your mana token to its used side for 1 mana"
    if a.verb == "use" and args:
        return f"use {_ref_words(args[0], obs, cards, seat)}"
    if a.verb == "trade":
        return "trade 3 spare spirit symbols for 1 VP"
    if a.verb == "finish":
        if (obs.get("pending") or {}).get("kind") == "finish_turn":
            return "finish your turn (your field is prepared; the next player begins)"
        return "finish your Harvest (then sleeve what you bought and discard your field)"
    if a.verb == "sleeve" and args:
        adv = (obs.get("pending") or {}).get("advancement")
        what = adv["label"] if adv else "the bought advancement"
        return f"sleeve {what} on {_ref_words(args[0], obs, cards, seat)}"
    if a.verb == "spoil":
        return "accept spoiling: skip your Harvest (your mana token turns to its active side)"
    if a.verb == "upgrade" and len(args) == 1:
        return f"upgrade your leader {_ref_words(args[0], obs, cards, seat)} (uses one of your advancement buys)"
    if a.verb in ("discard", "take") and len(args) == 1:
        return f"{a.verb} {_ref_words(args[0], obs, cards, seat)}"
    meaning = VERBS.get(a.verb, a.verb)
    if not args:
        return meaning
    words = " ".join(_ref_words(x, obs, cards, seat) for x in args)
    return f"{meaning}: {words}"


def action_list(actions: Iterable[Action], obs: dict[str, Any]) -> Table:
    """The legal actions, numbered from 1, with notation and plain words."""
    tab = Table(title="Your choices", title_justify="left", expand=True, show_edge=False)
    tab.add_column("#", justify="right", style="bold", no_wrap=True)
    tab.add_column("notation", style="cyan", no_wrap=True)
    tab.add_column("what it does", ratio=1)
    for i, a in enumerate(actions, start=1):
        tab.add_row(str(i), str(a), describe_action(a, obs))
    return tab


# -- other screens ---------------------------------------------------------------------
def _card_groups(cards: Sequence[dict[str, Any]], title: str) -> Table:
    """A table of cards grouped by make-up (copies, name and ids, symbols, abilities)."""
    tab = Table(title=title, title_justify="left", expand=True)
    tab.add_column("copies", justify="right", no_wrap=True)
    tab.add_column("card", ratio=3)
    tab.add_column("symbols", ratio=3)
    tab.add_column("abilities", ratio=4)
    groups: dict[tuple, list[dict]] = {}
    for c in cards:
        key = (c["name"], tuple(sorted(card_symbols(c).items())), tuple(c.get("abilities") or ()))
        groups.setdefault(key, []).append(c)
    for (_name, _sym, _ab), cs in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0][0])):
        c = cs[0]
        ids = ", ".join(f"#{x['id']}" for x in cs)
        name = _named(c["name"], c, style="italic" if c.get("unseen_leader") else "")
        name.append(f"\n{ids}")
        tab.add_row(str(len(cs)), name, symbols_text(card_symbols(c)), _abilities(c, notes=True))
    return tab


def deck_view(obs: dict[str, Any], seat: int) -> RenderableType:
    """A seat's cards.  Your own: deck contents (no order), the known top cards, the
    discard pile.  Another player's: every card it owns (public: each was bought and
    sleeved in front of everyone), but not which are in its deck and which in its
    discard pile (file 000: you may not look at other players' discard piles)."""
    p = obs["players"][seat]
    if "deck" not in p:
        return others_cards_view(obs, seat)
    parts: list[RenderableType] = [
        _card_groups(p["deck"], f"Your deck ({p['deck_count']} cards, order unknown)")]
    known = p.get("known_top") or []
    if known:
        byid = {c["id"]: c for c in p["deck"]}
        names = [_card_label(byid[i]) if i in byid else f"#{i}" for i in reversed(known)]
        parts.append(Text("Known top of the deck (top first): " + ", ".join(names)))
    if p.get("on_deck"):
        parts.append(Text(f"On deck: {_card_label(p['on_deck'])}"))
    disc = Counter(c["name"] for c in p.get("discard") or [])
    parts.append(Text(f"Discard pile ({p['discard_count']}): "
                      + (", ".join(f"{n}× {name}" for name, n in sorted(disc.items())) or "empty")))
    total = Counter(c["name"] for c in p["deck"])
    parts.append(Text(f"{p['owned_count']} cards owned in all; deck by name: "
                      + ", ".join(f"{n}× {name}" for name, n in sorted(total.items()))))
    return Group(*parts)


def others_cards_view(obs: dict[str, Any], seat: int) -> RenderableType:
    """Every card another player owns, as anyone may see it (see :func:`deck_view`)."""
    p = obs["players"][seat]
    owned = p.get("owned") or []
    in_field = len(p["field"]) + (1 if p.get("on_deck") else 0)
    parts: list[RenderableType] = [
        _card_groups(owned, f"{player_name(seat)}'s cards ({p['owned_count']}, in no order)"),
        Text(f"{p['deck_count']} in the deck, {1 if p.get('on_deck') else 0} on deck, "
             f"{len(p['field'])} in the field, {p['discard_count']} in the discard pile. Which of the "
             f"{p['owned_count'] - in_field - len(p.get('set_aside') or [])} cards not showing are in the "
             "deck and which in the discard pile is not yours to know.", style="dim")]
    if any(c.get("unseen_leader") for c in owned):
        parts.append(Text("Their leader has not been face up yet: which one it is stays hidden.", style="dim"))
    return Group(*parts)


def end_screen(breakdowns: Sequence[dict[str, int]], winners: Sequence[int], *, rounds: int | None = None,
               names: Sequence[str] | None = None) -> Group:
    """Final scores by source for every player, and the winner(s)."""
    names = list(names) if names else [player_name(p) for p in range(len(breakdowns))]
    tab = Table(title="Final scores" + (f" after {rounds} rounds" if rounds else ""), title_justify="left")
    tab.add_column("")
    for p, n in enumerate(names):
        tab.add_column(n + (" ★" if p in winners else ""), justify="right",
                       style="bold green" if p in winners else "")
    keys = [k for k in breakdowns[0] if k not in ("total", "tiebreak")] if breakdowns else []
    for k in keys:
        tab.add_row(k.replace("_", " ").replace("vp", "VP"), *(str(b.get(k, 0)) for b in breakdowns))
    tab.add_row(Text("total", style="bold"), *(Text(str(b["total"]), style="bold") for b in breakdowns),
                end_section=True)
    if breakdowns and "tiebreak" in breakdowns[0]:
        tab.add_row(Text("tie-break (level-3 advancements + level-2 vales)", style="dim"),
                    *(str(b["tiebreak"]) for b in breakdowns))
    if len(winners) == 1:
        line = Text(f"{names[winners[0]]} wins!", style="bold green")
    elif winners:
        line = Text("Shared win: " + ", ".join(names[w] for w in winners), style="bold green")
    else:
        line = Text("No winner.", style="bold")
    return Group(tab, line)

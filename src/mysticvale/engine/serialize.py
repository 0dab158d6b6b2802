"""Exact JSON round trips of a whole game, RNG included; corrupt saves are refused whole.

Advancement copies and vales are written by name (``"Aurora@top"``), so a save stays
readable and does not depend on the order of the catalogue files.
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import SaveError
from .rng import Rng
from .rulesets import get_ruleset
from .state import Event, Pending, Player, Purchase, State, Step, Turn

FORMAT = "mysticvale-save"
VERSION = 1


def state_to_dict(st: State) -> dict[str, Any]:
    cat = st.cat
    lab = cat.label

    def labels(xs):
        return [lab(c) if c is not None else None for c in xs]

    vname = [cat.vale_list[t].name for t in st.vale_types]
    return {
        "format": FORMAT,
        "version": VERSION,
        "catalogue": {"sets": list(cat.sets), "custom": cat.raw},
        "ruleset": st.ruleset.name,
        "rng": st.rng.to_dict(),
        "cards": [labels(c) for c in st.cards],
        "owner": st.owner,
        "players": [{
            "deck": p.deck, "on_deck": p.on_deck, "field": p.field, "discard": p.discard,
            "vales": p.vales, "vp_tokens": p.vp_tokens, "curse_tokens": p.curse_tokens,
            "mana_token_active": p.mana_token_active, "star": p.star, "known_top": p.known_top,
            "guards_used": p.guards_used, "aether_cards": p.aether_cards,
            "removed_vales": p.removed_vales, "aside": p.aside, "harvest_next": p.harvest_next,
            "dealt_leaders": p.dealt_leaders, "taken_unseen": p.taken_unseen,
        } for p in st.players],
        "adv_decks": {str(k): labels(v) for k, v in st.adv_decks.items()},
        "commons": {str(k): labels(v) for k, v in st.commons.items()},
        "soil_left": st.soil_left,
        "vale_types": vname,
        "vale_decks": {str(k): v for k, v in st.vale_decks.items()},
        "vale_rows": {str(k): v for k, v in st.vale_rows.items()},
        "vp_pool": st.vp_pool,
        "vp_reserve_taken": st.vp_reserve_taken,
        "curse_supply_taken": st.curse_supply_taken,
        "first_player": st.first_player,
        "current": st.current,
        "round": st.round,
        "turn_number": st.turn_number,
        "turn": {
            "player": st.turn.player, "phase": st.turn.phase, "spoiled": st.turn.spoiled,
            "mana_bonus": st.turn.mana_bonus, "mana_spent": st.turn.mana_spent,
            "spirit_spent": st.turn.spirit_spent, "spirit_bonus": st.turn.spirit_bonus,
            "vale_buys": st.turn.vale_buys, "vale_limit": st.turn.vale_limit,
            "adv_buys": st.turn.adv_buys,
            "purchases": [[lab(p.copy), p.target] for p in st.turn.purchases],
            "new_vales": st.turn.new_vales, "new_layers": st.turn.new_layers,
            "used": st.turn.used, "scored": st.turn.scored, "kept": st.turn.kept,
            "upgrades": st.turn.upgrades, "phase_floor": st.turn.phase_floor,
        },
        "steps": [[s.kind, s.player, _enc(st, s.data)] for s in st.steps],
        "pending": [[p.kind, p.player, _enc(st, p.data), p.private] for p in st.pending],
        "end_triggered": st.end_triggered,
        "over": st.over,
        "winner_override": st.winner_override,
        "extra_turns": st.extra_turns,
        "seen_leaders": st.seen_leaders,
        "finish_turn": st.finish_turn,
        "events": [[e.kind, e.player, e.text, e.private_to, e.public_text, e.data] for e in st.events],
        "history": st.history,
    }


def _enc(st: State, data: dict) -> dict:
    # Copy indices inside step / decision data are written as labels.
    out = {}
    for k, v in data.items():
        if k == "copy":
            out[k] = st.cat.label(v)
        elif k == "items":
            out[k] = [_enc(st, it) for it in v]
        else:
            out[k] = v
    return out


def _dec(cat, data: dict) -> dict:
    out = {}
    for k, v in data.items():
        if k == "copy":
            out[k] = cat.from_label(v)
        elif k == "items":
            out[k] = [_dec(cat, it) for it in v]
        else:
            out[k] = v
    return out


def dumps(st: State) -> str:
    return json.dumps(state_to_dict(st), separators=(",", ":"), sort_keys=True)


def loads(text: str | bytes) -> State:
    """Rebuild a game from :func:`dumps` output; SaveError for anything not a valid save."""
    try:
        data = json.loads(text)
    except (ValueError, TypeError) as exc:
        raise SaveError(f"not a saved game: the text is not valid JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError("not a saved game: the 'format' field is missing or wrong")
    if data.get("version") != VERSION:
        raise SaveError(f"saved game version {data.get('version')!r} is not supported (expected {VERSION})")
    try:
        st = _from_dict(data)
    except SaveError:
        raise
    except Exception as exc:  # any malformed field: refuse the whole save
        raise SaveError(f"corrupt saved game: {type(exc).__name__}: {exc}") from None
    _check(st)
    return st


def _from_dict(d: dict) -> State:
    from ..cards.catalogue import catalogue_from_json

    cat = catalogue_from_json(d["catalogue"])
    fl = cat.from_label

    def copies(xs):
        return [fl(x) if x is not None else None for x in xs]

    vale_idx = [cat.vale_index[n] for n in d["vale_types"]]
    t = d["turn"]
    turn = Turn(
        player=int(t["player"]), phase=str(t["phase"]), spoiled=bool(t["spoiled"]),
        mana_bonus=int(t["mana_bonus"]), mana_spent=int(t["mana_spent"]),
        spirit_spent=[int(x) for x in t["spirit_spent"]], spirit_bonus=[int(x) for x in t["spirit_bonus"]],
        vale_buys=int(t["vale_buys"]), vale_limit=int(t["vale_limit"]), adv_buys=int(t["adv_buys"]),
        purchases=[Purchase(fl(c), tg) for c, tg in t["purchases"]],
        new_vales=list(t["new_vales"]), new_layers=[list(x) for x in t["new_layers"]],
        used=list(t["used"]), scored=list(t["scored"]), kept=list(t["kept"]),
        upgrades=[int(x) for x in t.get("upgrades", [])],
        phase_floor=int(t.get("phase_floor", 0)),
    )
    return State(
        cat=cat,
        ruleset=get_ruleset(d["ruleset"]),
        rng=Rng.from_dict(d["rng"]),
        cards=[tuple(fl(x) for x in c) for c in d["cards"]],
        owner=[int(x) for x in d["owner"]],
        players=[Player(
            deck=list(p["deck"]), on_deck=p["on_deck"], field=list(p["field"]), discard=list(p["discard"]),
            vales=list(p["vales"]), vp_tokens=int(p["vp_tokens"]), curse_tokens=int(p["curse_tokens"]),
            mana_token_active=bool(p["mana_token_active"]), star=bool(p["star"]),
            known_top=list(p["known_top"]), guards_used=list(p["guards_used"]),
            aether_cards=list(p["aether_cards"]), removed_vales=list(p["removed_vales"]),
            aside=[int(x) for x in p.get("aside", [])], harvest_next=bool(p.get("harvest_next", False)),
            dealt_leaders=[str(x) for x in p.get("dealt_leaders", [])],
            taken_unseen=[int(x) for x in p.get("taken_unseen", [])],
        ) for p in d["players"]],
        adv_decks={int(k): copies(v) for k, v in d["adv_decks"].items()},
        commons={int(k): copies(v) for k, v in d["commons"].items()},
        soil_left={str(k): int(v) for k, v in d["soil_left"].items()},
        vale_types=vale_idx,
        vale_decks={int(k): list(v) for k, v in d["vale_decks"].items()},
        vale_rows={int(k): list(v) for k, v in d["vale_rows"].items()},
        vp_pool=int(d["vp_pool"]),
        vp_reserve_taken=int(d["vp_reserve_taken"]),
        curse_supply_taken=int(d["curse_supply_taken"]),
        first_player=int(d["first_player"]),
        current=int(d["current"]),
        round=int(d["round"]),
        turn_number=int(d["turn_number"]),
        turn=turn,
        steps=[Step(k, int(p), _dec(cat, data)) for k, p, data in d["steps"]],
        pending=[Pending(k, int(p), _dec(cat, data), list(priv)) for k, p, data, priv in d["pending"]],
        end_triggered=d["end_triggered"],
        over=bool(d["over"]),
        winner_override=d["winner_override"],
        extra_turns=list(d["extra_turns"]),
        seen_leaders=[int(x) for x in d.get("seen_leaders", [])],
        finish_turn=_flag(d.get("finish_turn", False), "finish_turn"),
        events=[Event(k, p, tx, pt, pub, dict(dt)) for k, p, tx, pt, pub, dt in d["events"]],
        history=[str(h) for h in d["history"]],
    )


def _flag(value, name: str) -> bool:
    if not isinstance(value, bool):
        raise SaveError(f"corrupt saved game: {name!r} must be true or false, not {value!r}")
    return value


def _check(st: State) -> None:
    """Consistency checks a save must pass: every card in exactly one place."""
    from .registry import DECISIONS, STEPS

    n = len(st.cards)
    if len(st.owner) != n or not 2 <= len(st.players) <= 4:
        raise SaveError("corrupt saved game: card owners or player count do not match")
    seen: list[int] = []
    for pl in st.players:
        seen += pl.deck + pl.field + pl.discard + pl.aside + ([pl.on_deck] if pl.on_deck is not None else [])
    if sorted(seen) != list(range(n)):
        raise SaveError("corrupt saved game: the cards are not each in exactly one place")
    vales: list[int] = []
    for pl in st.players:
        vales += pl.vales + pl.removed_vales
    for lvl in st.vale_decks:
        vales += st.vale_decks[lvl]
    for lvl in st.vale_rows:
        vales += [v for v in st.vale_rows[lvl] if v is not None]
    if sorted(vales) != list(range(len(st.vale_types))):
        raise SaveError("corrupt saved game: the vale cards are not each in exactly one place")
    for s in st.steps:
        if s.kind not in STEPS:
            raise SaveError(f"corrupt saved game: unknown rules step {s.kind!r}")
    for p in st.pending:
        if p.kind not in DECISIONS:
            raise SaveError(f"corrupt saved game: unknown decision {p.kind!r}")
    if st.turn.phase_floor < 0:
        raise SaveError("corrupt saved game: the phase's place on the step stack is negative")
    if st.turn.phase not in ("planting", "harvest", "discard", "prep", "over"):
        raise SaveError(f"corrupt saved game: unknown phase {st.turn.phase!r}")

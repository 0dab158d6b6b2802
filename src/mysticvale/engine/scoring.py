"""Final scoring and winners (file 000, End of the Game; file 003, Example Final Scoring)."""

from __future__ import annotations

from .sleeve import GAIA_SYMBOLS
from .card_types import SYMBOLS
from .state import State
from .zones import owned_cards, stats

_GAIA_IDX = [SYMBOLS.index(s) for s in GAIA_SYMBOLS]


def card_end_vp(st: State, card: int, p: int) -> tuple[int, int]:
    """(gray VP incl. end-game abilities, red negative VP) of one card."""
    s = stats(st, card)
    vp = s.end_vp
    for layer, ab in s.abilities:
        if ab.trigger != "end_game":
            continue
        if ab.effect == "vp_per_printed_symbol":
            vp += sum(s.printed[i] for i in _GAIA_IDX)
        elif ab.effect == "vp_per_symbol_in_deck":
            idx = SYMBOLS.index(ab.param("symbol"))
            vp += sum(stats(st, c).printed[idx] for c in owned_cards(st, p)) * ab.param("per", 1)
    return vp, s.neg_vp


def breakdown(st: State, p: int) -> dict[str, int]:
    """A player's score by source; ``total`` is the sum."""
    pl = st.players[p]
    adv_vp = adv_neg = 0
    level3 = 0
    for c in owned_cards(st, p):
        vp, neg = card_end_vp(st, c, p)
        adv_vp += vp
        adv_neg += neg
        level3 += stats(st, c).level3
    vale_vp = vale_neg = level2_vales = 0
    for v in pl.vales:
        vt = st.cat.vale_list[st.vale_types[v]]
        vale_vp += vt.end_vp
        vale_neg += vt.neg_vp
        level2_vales += vt.level == 2
    out = {
        "vp_tokens": pl.vp_tokens,
        "advancements": adv_vp,
        "vales": vale_vp,
        "negative_vp": -(adv_neg + vale_neg),
        "curse_tokens": -pl.curse_tokens,
    }
    out["total"] = sum(out.values())
    out["tiebreak"] = level3 + level2_vales
    return out


def scores(st: State) -> list[int]:
    return [breakdown(st, p)["total"] for p in range(len(st.players))]


def winners(st: State) -> list[int]:
    """Most points; ties broken by level-3 advancements plus level-2 vales; then shared."""
    if st.winner_override is not None:
        return list(st.winner_override)
    b = [breakdown(st, p) for p in range(len(st.players))]
    best = max((x["total"], x["tiebreak"]) for x in b)
    return [p for p, x in enumerate(b) if (x["total"], x["tiebreak"]) == best]

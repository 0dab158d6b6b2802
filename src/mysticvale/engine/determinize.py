"""Sampling a full state consistent with what one seat knows (for search bots).

Hidden in Mystic Vale is order: every player deck below its on-deck card, and the supply
decks.  A determinization keeps everything the viewer can see or legitimately knows (the
cards on top of its own deck whose order it knows) and reshuffles the rest with the
caller's random stream, so a search never peeks at the real order.
"""

from __future__ import annotations

from .leaders import resample_hidden_leaders
from .rng import Rng
from .state import State


def determinize(st: State, viewer: int, rng: Rng, stream: str = "determinize") -> State:
    out = st.clone()
    for p, pl in enumerate(out.players):
        known = pl.known_top if p == viewer else []
        k = len(known)
        if k and pl.deck[len(pl.deck) - k:] == known:
            hidden = pl.deck[: len(pl.deck) - k]
        else:
            hidden, known = list(pl.deck), []
        # Sorted first, so the sample depends only on what the viewer knows, never on the
        # real hidden order.
        hidden.sort()
        rng.shuffle(stream, hidden)
        pl.deck = hidden + list(known)
    for level in out.adv_decks:
        out.adv_decks[level].sort()
        rng.shuffle(stream, out.adv_decks[level])
    for level in out.vale_decks:
        out.vale_decks[level].sort()
        rng.shuffle(stream, out.vale_decks[level])
    # Leaders an opponent keeps unseen are hidden too (file 003): resample them.
    resample_hidden_leaders(out, viewer, rng, stream)
    # The sampled world must not share the real game's future: give it a new seed.
    out.rng = Rng(rng.below(stream, 2**62))
    return out

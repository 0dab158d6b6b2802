"""Sampling a full state consistent with what one seat knows (for search bots).

What the viewer knows is its observation plus what it saw happen in public.  Every card
each player owns is public with its advancements (the ``owned`` lists), and so is every
card that reached a discard pile face up.  Hidden, and so resampled here with the caller's
random stream, are:

* the order of every deck (the viewer keeps the cards on top of its own deck whose order
  it knows) and of the supply decks;
* for every other player, which of its cards are in the deck and which in the discard
  pile, as far as cards went there unseen (a search or a private look discards a card
  that only its player knows, ``Player.taken_unseen``): those places are refilled from the
  same pool as the deck;
* the leaders other players keep and have never shown (file 003), and the pairs still to
  be chosen at setup.

Everything the viewer can see stays: each player's owned cards (ids and make-ups), the
fields, the on-deck cards, the cards set aside, the publicly discarded cards.  The sample
depends only on what the viewer knows, never on the real hidden order.
"""

from __future__ import annotations

from .leaders import resample_hidden_leaders
from .rng import Rng
from .state import Player, State


def determinize(st: State, viewer: int | None, rng: Rng, stream: str = "determinize") -> State:
    """A copy of ``st`` with everything ``viewer`` cannot know resampled (``viewer`` None:
    a spectator, who knows no player's private information)."""
    out = st.clone()
    for p, pl in enumerate(out.players):
        if p == viewer:
            _own_deck(pl, rng, stream)
        else:
            _other_deck(out, p, pl, rng, stream)
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


def _own_deck(pl: Player, rng: Rng, stream: str) -> None:
    """The viewer's deck: the cards on top whose order it knows stay, the rest reshuffled."""
    known = pl.known_top
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


def _other_deck(st: State, p: int, pl: Player, rng: Rng, stream: str) -> None:
    """Another player's deck, and the places in its discard pile of cards it discarded
    unseen: one pool, dealt out again at random."""
    unseen = [i for i, c in enumerate(pl.discard) if c in pl.taken_unseen] if pl.taken_unseen else []
    if unseen:
        # Cards that player is looking at now (a pending private decision) are in its deck
        # and the decision names them: they stay in the deck (their order is resampled).
        pinned = {c for pd in st.pending if pd.player == p for c in pd.private}
        pool = sorted([c for c in pl.deck if c not in pinned] + [pl.discard[i] for i in unseen])
        rng.shuffle(stream, pool)
        for i in unseen:
            pl.discard[i] = pool.pop()
        pl.taken_unseen = [pl.discard[i] for i in unseen]
        deck = pool + [c for c in pl.deck if c in pinned]
    else:
        deck = list(pl.deck)
    deck.sort()
    rng.shuffle(stream, deck)
    pl.deck = deck
    # That player knows the order of as many cards on top of its deck as before: here,
    # the sampled ones.
    k = len(pl.known_top)
    pl.known_top = deck[len(deck) - k:] if 0 < k <= len(deck) else []

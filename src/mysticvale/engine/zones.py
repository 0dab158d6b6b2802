"""Moving cards between zones, counting symbols, gaining tokens, logging events.

Small helpers every rules module uses.  Nothing here decides anything.
"""

from __future__ import annotations

from .card_types import SYMBOLS
from .catalogue import remember
from .sleeve import SleeveStats
from .state import Event, Pending, State, Step

_DECAY = SYMBOLS.index("decay")


def stats(st: State, card: int) -> SleeveStats:
    layers = st.cards[card]
    s = st.cat._stats.get(layers)
    return s if s is not None else st.cat.stats(layers)


def card_name(st: State, card: int) -> str:
    """A short readable name for a card: its advancements, or the starting card."""
    layers = st.cards[card]
    name = st.cat.names.get(layers)
    if name is None:
        s = stats(st, card)
        name = remember(st.cat.names, layers, " + ".join(
            st.cat.copies[layers[i]].type.name for i in s.active_layers) if layers else "Blank")
    return f"#{card} {name}"


def log(st: State, kind: str, player: int | None, text: str, *, private_to: int | None = None,
        public_text: str = "", **data) -> None:
    st.events.append(Event(kind, player, text, private_to, public_text, data))


def schedule(st: State, *steps: Step) -> None:
    """Run ``steps`` in the given order before anything already scheduled."""
    st.steps.extend(reversed(steps))


def ask(st: State, kind: str, player: int, private: list[int] | None = None, **data) -> None:
    st.pending.append(Pending(kind, player, data, list(private or [])))


# -- decks -------------------------------------------------------------------------
def shuffle_discard_into_deck(st: State, p: int) -> None:
    """An empty deck is refilled by shuffling the discard pile (file 000)."""
    pl = st.players[p]
    pl.deck = pl.discard + pl.deck
    pl.discard = []
    st.rng.shuffle(f"deck{p}", pl.deck)
    pl.known_top = []
    pl.taken_unseen = []      # all in the deck again: nothing left whose place is private
    log(st, "shuffle", p, f"Player {p + 1} shuffles the discard pile into a new deck.")


def shuffle_deck(st: State, p: int) -> None:
    pl = st.players[p]
    st.rng.shuffle(f"deck{p}", pl.deck)
    pl.known_top = []


def ensure_deck(st: State, p: int) -> None:
    """An empty deck that a card is needed from is refilled by shuffling the discard pile."""
    pl = st.players[p]
    if not pl.deck and pl.discard:
        shuffle_discard_into_deck(st, p)


def take_top(st: State, p: int) -> int | None:
    """Take the top card of the deck (refilling from the discard pile if empty)."""
    ensure_deck(st, p)
    pl = st.players[p]
    if not pl.deck:
        return None
    c = pl.deck.pop()
    if pl.known_top:
        if pl.known_top[-1] == c:
            pl.known_top.pop()
        else:
            pl.known_top = []
    return c


def take_from_deck(st: State, p: int, card: int) -> None:
    """Remove a specific card from the deck (a search); known order below it is kept.
    Until it is next face up (:func:`mark_seen`), only its player knows where it went."""
    pl = st.players[p]
    pl.deck.remove(card)
    if card in pl.known_top:
        pl.known_top = []
    if card not in pl.taken_unseen:
        pl.taken_unseen.append(card)


def reveal(st: State, p: int) -> None:
    """Turn over the top card of the deck as the new on-deck card."""
    pl = st.players[p]
    pl.on_deck = take_top(st, p)
    if pl.on_deck is not None:
        mark_seen(st, pl.on_deck)
        log(st, "reveal", p, f"Player {p + 1} reveals {card_name(st, pl.on_deck)} on deck.",
            card=pl.on_deck)


def mark_seen(st: State, card: int) -> None:
    """A card is face up for everyone: where it is is public again, and if it is a leader,
    which one is public from now on."""
    for pl in st.players:
        if pl.taken_unseen and card in pl.taken_unseen:
            pl.taken_unseen.remove(card)
    if st.cat.leaders and card not in st.seen_leaders and any(st.cat.copies[i].type.kind == "leader" for i in st.cards[card]):
        st.seen_leaders.append(card)


def discard_card(st: State, p: int, card: int) -> None:
    st.players[p].discard.append(card)


def discard_looked_at(st: State, p: int, card: int) -> None:
    """Discard a card the player looked at privately from the top of the deck; other seats
    learn only that a card was discarded (file 003: "you do not need to reveal")."""
    take_from_deck(st, p, card)
    discard_card(st, p, card)
    log(st, "ability", p, f"Player {p + 1} discards {card_name(st, card)} from the top of the deck.",
        private_to=p, public_text=f"Player {p + 1} discards a card from the top of the deck.")


def discard_searched(st: State, p: int, card: int) -> None:
    """Discard a card found by searching the face-down deck (Cleansing Rain, Lifetap Oracle);
    other seats learn only that a card was discarded (file 000: "You may not look at any
    cards in a deck unless an ability allows you to do so", and the ability allows only its
    owner)."""
    take_from_deck(st, p, card)
    discard_card(st, p, card)
    log(st, "ability", p, f"Player {p + 1} searches the deck and discards {card_name(st, card)}.",
        private_to=p, public_text=f"Player {p + 1} searches the deck and discards a card.")


# -- symbols -----------------------------------------------------------------------
def card_decay(st: State, p: int, card: int) -> int:
    s = stats(st, card)
    if card in st.players[p].aether_cards:
        return s.aether_decay
    return s.symbols[_DECAY]


def net_decay(st: State, p: int) -> int:
    """Decay showing in the field and on the on-deck card, each growth cancelling one."""
    pl = st.players[p]
    cards = pl.field if pl.on_deck is None else pl.field + [pl.on_deck]
    memo = st.cat._stats
    layers = st.cards
    aether = pl.aether_cards
    total = 0
    for c in cards:
        s = memo.get(layers[c]) or st.cat.stats(layers[c])
        total += s.aether_net if aether and c in aether else s.net
    return total


def decay_symbols(st: State, p: int) -> int:
    """Decay symbols showing in the field and on the on-deck card, growth not counted (the
    German rules' count, file 004: "drei Verfall-Symbole in deinem Feld und auf deiner
    Deckkarte")."""
    pl = st.players[p]
    cards = pl.field if pl.on_deck is None else pl.field + [pl.on_deck]
    return sum(card_decay(st, p, c) for c in cards)


_SYM_INDEX = {name: i for i, name in enumerate(SYMBOLS)}


def field_sum(st: State, p: int, symbol: str) -> int:
    return field_totals(st, p)[_SYM_INDEX[symbol]]


_NO_SYMBOLS = (0,) * len(SYMBOLS)


def field_totals(st: State, p: int) -> tuple[int, ...]:
    """Every symbol summed over the field (SYMBOLS order); kept in the state's memo."""
    key = ("field_totals", p)
    out = st.memo.get(key)
    if out is None:
        memo, cat, layers = st.cat._stats, st.cat, st.cards
        rows = [(memo.get(layers[c]) or cat.stats(layers[c])).symbols for c in st.players[p].field]
        out = st.memo[key] = tuple(map(sum, zip(*rows))) if rows else _NO_SYMBOLS
    return out


def owned_cards(st: State, p: int) -> list[int]:
    pl = st.players[p]
    out = list(pl.deck) + list(pl.field) + list(pl.discard) + list(pl.aside)
    if pl.on_deck is not None:
        out.append(pl.on_deck)
    return out


# -- tokens ------------------------------------------------------------------------
def gain_vp(st: State, p: int, n: int, *, from_reserve: bool = False, why: str = "") -> None:
    """Gain VP tokens from the pool (from the reserve once the pool is empty, or when a
    rule says so).  Emptying the pool triggers the end of the game."""
    if n <= 0:
        return
    from_pool = 0 if from_reserve else min(n, st.vp_pool)
    st.vp_pool -= from_pool
    st.vp_reserve_taken += n - from_pool
    st.players[p].vp_tokens += n
    log(st, "vp", p, f"Player {p + 1} gains {n} VP{' (' + why + ')' if why else ''}.", amount=n)
    if from_pool and st.vp_pool == 0 and st.end_triggered is None:
        st.end_triggered = "vp_pool"
        log(st, "end_triggered", None, "The VP pool is empty: the game ends after this round.")


def gain_curse(st: State, p: int, n: int, why: str = "") -> None:
    if n <= 0:
        return
    st.players[p].curse_tokens += n
    st.curse_supply_taken += n
    log(st, "curse", p, f"Player {p + 1} gains {n} curse token(s){' (' + why + ')' if why else ''}.", amount=n)

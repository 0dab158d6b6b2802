"""The ability vocabulary: every effect a card's data may name, and how it resolves.

An effect is registered with the triggers it may have and its parameters (the catalogue
loader checks card data against this).  Effects with a handler resolve when their
ability does; passive effects are read by other rules (symbols, discounts, scoring).
Choices inside abilities are pending decisions answered through actions.
"""

from __future__ import annotations

from ..actions import Action
from ..card_types import Ability
from ..registry import decision, effect, passive
from ..state import State
from ..zones import (
    discard_looked_at, discard_searched,
    ask, card_name, discard_card, ensure_deck, log, shuffle_deck,
)

# -- passive effects (read by sleeve stats, buying and scoring) -----------------------
passive("mana_per_guardian", ("ongoing",), {"per": int},
        "Ongoing: +per mana for each guardian on this card (Grovetender).")
passive("mana_per_symbol", ("ongoing",), {"symbol": str, "per": int},
        "Ongoing: +per mana for each given symbol on this card.")
passive("no_decay", ("ongoing",), {}, "Ongoing: this card has no decay (Lifebringer Seed).")
passive("max_decay", ("ongoing",), {"max": int}, "Ongoing: this card has at most max decay (Seedling).")
passive("discount_on_this_card", ("buy_discount",), {"amount": int},
        "An advancement bought to be sleeved on this card costs amount less (Earthchant Chorus).")
passive("vp_per_printed_symbol", ("end_game",), {},
        "End of game: 1 VP per symbol printed on this card, text ignored (Gaia's Chosen).")
passive("discard_on_deck_instead", ("spoil_guard",), {},
        "Instead of spoiling, discard the on-deck card and reveal another (Peacekeeper Druid).")
passive("cancel_decay_on_card", ("spoil_guard",), {},
        "Instead of spoiling, discard this vale to cancel non-Cursed-Land decay on a card (Aether Tree).")


def usable(st: State, p: int, ab: Ability, data: dict) -> bool:
    """Would using this ability now do anything the player may want?  (An ability that can
    do nothing is not offered; a mandatory one still resolves at the end of the Harvest.)"""
    check = _USABLE.get(ab.effect)
    return True if check is None else check(st, p, ab, data)


_USABLE: dict = {}


def _field_count(st: State, p: int) -> int:
    return len(st.players[p].field)


# -- Harvest: mana ---------------------------------------------------------------------
@effect("mana_per_field_cards", ("harvest",), {"per": int})
def _mana_per_field_cards(st: State, p: int, ab: Ability, data: dict) -> None:
    """Gain 1 mana for every ``per`` cards in your field, rounded down (Aurora)."""
    n = _field_count(st, p) // ab.param("per", 2)
    st.turn.mana_bonus += n
    log(st, "ability", p, f"Player {p + 1} gains {n} mana from Aurora's ability.", amount=n)


@effect("mana_per_other_field_cards", ("harvest",), {})
def _mana_per_other(st: State, p: int, ab: Ability, data: dict) -> None:
    """Gain 1 mana for each other card in your field (Magic Seed)."""
    n = max(0, _field_count(st, p) - 1)
    st.turn.mana_bonus += n
    log(st, "ability", p, f"Player {p + 1} gains {n} mana for the other cards in the field.", amount=n)


# -- When Played: look at the top card (Calm Weather) ----------------------------------
@effect("look_top_discard_or_keep", ("when_played",), {})
def _look_top(st: State, p: int, ab: Ability, data: dict) -> None:
    """Look at the top card of your deck; discard it or put it back (Calm Weather)."""
    ensure_deck(st, p)
    pl = st.players[p]
    if not pl.deck:
        return
    top = pl.deck[-1]
    ask(st, "look_top", p, private=[top], card=top)


def _look_top_legal(st: State, pd) -> list[Action]:
    return [Action("discard", (f"#{pd.data['card']}",)), Action("keep")]


@decision("look_top", _look_top_legal, lambda st, pd: "looking at the top card of the deck")
def _look_top_apply(st: State, pd, action: Action) -> None:
    p = pd.player
    card = pd.data["card"]
    if action.verb == "discard":
        discard_looked_at(st, p, card)
    else:
        st.players[p].known_top = [card]
        log(st, "ability", p, f"Player {p + 1} keeps {card_name(st, card)} on top of the deck.",
            private_to=p, public_text=f"Player {p + 1} puts the top card back.")


# -- When Played: discard a field card (Mindful Owl, Deadwood Harvester) ----------------
@effect("discard_field_card", ("when_played",), {})
def _discard_field_card(st: State, p: int, ab: Ability, data: dict) -> None:
    """You may discard another card already in your field."""
    others = [c for c in st.players[p].field if c != data.get("card")]
    if others:
        ask(st, "discard_field", p, source=data.get("card"))


def _discard_field_legal(st: State, pd) -> list[Action]:
    src = pd.data.get("source")
    return [Action("discard", (f"#{c}",)) for c in st.players[pd.player].field if c != src] + [Action("skip")]


@decision("discard_field", _discard_field_legal, lambda st, pd: "choosing a field card to discard")
def _discard_field_apply(st: State, pd, action: Action) -> None:
    if action.verb == "skip":
        return
    p = pd.player
    c = int(action.args[0][1:])
    st.players[p].field.remove(c)
    discard_card(st, p, c)
    log(st, "ability", p, f"Player {p + 1} discards {card_name(st, c)} from the field.")


# -- When Played: search the deck (Cleansing Rain) --------------------------------------
@effect("search_deck_discard", ("when_played",), {})
def _search_deck(st: State, p: int, ab: Ability, data: dict) -> None:
    """Search your deck for any card and you may discard it; then shuffle your deck.
    With an empty deck, first shuffle the discard pile into a new deck (file 000)."""
    ensure_deck(st, p)
    if st.players[p].deck:
        ask(st, "search_deck", p, private=list(st.players[p].deck), count=1)


def distinct_cards(st: State, cards: list[int]) -> list[int]:
    """One card of each distinct make-up (identical cards are the same choice)."""
    seen: dict[tuple[int, ...], int] = {}
    for c in sorted(cards):
        seen.setdefault(st.cards[c], c)
    return sorted(seen.values())


def _search_legal(st: State, pd) -> list[Action]:
    return [Action("discard", (f"#{c}",)) for c in distinct_cards(st, st.players[pd.player].deck)] \
        + [Action("skip")]


@decision("search_deck", _search_legal, lambda st, pd: "searching the deck")
def _search_apply(st: State, pd, action: Action) -> None:
    p = pd.player
    if action.verb == "discard":
        discard_searched(st, p, int(action.args[0][1:]))
    else:
        log(st, "ability", p, f"Player {p + 1} searches the deck and discards nothing.")
    shuffle_deck(st, p)

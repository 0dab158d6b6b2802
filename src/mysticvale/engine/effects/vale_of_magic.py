"""Effects of the Vale of Magic expansion (file 000, Advancements and Vales Expansion 1).

The expansion brings two kinds of trigger, Discard and When Bought (file 000, Using
Abilities); both are first-class triggers of the engine (``discard`` abilities resolve in
the Discard phase through :func:`mysticvale.engine.flow.queue_triggered`, so the active
player orders simultaneous ones; ``when_bought`` abilities resolve the moment the card is
bought).  Every choice inside these abilities is a pending decision answered with an
action; cards a player looks at privately are kept in ``Pending.private`` and in events
with ``private_to``; cards put back in a known order go to ``Player.known_top``.

Five vales are named only in file 000's yucata interface notes (Manadew Meadow, Conclave
of Ents, Amberwood, Direwolf Burrow, Shimmercliff Rookery); their effects here are our
reading of those notes (docs/rules-decisions.md, "Vale of Magic").
"""

from __future__ import annotations

from ..actions import Action
from ..card_types import Ability
from ..registry import decision, effect, passive
from ..state import State
from ..zones import (
    discard_looked_at, discard_searched,
    ask, card_name, ensure_deck, gain_vp, log, shuffle_deck, stats, take_top,
)
from .base import _USABLE, distinct_cards

# -- passive effects ---------------------------------------------------------------------
passive("vp_per_symbol_in_deck", ("end_game",), {"symbol": str, "per": int},
        "End of game: ``per`` VP for each ``symbol`` printed on the cards you own (your whole "
        "deck, not only the draw pile) (Sporeling Reclaimer; read by engine/scoring.py).")


def _source_name(st: State, data: dict) -> str:
    if "vale" in data:
        return st.cat.vale_list[st.vale_types[data["vale"]]].name
    if "copy" in data:
        return st.cat.copies[data["copy"]].type.name
    return card_name(st, data["card"])


# -- the mana token (Goldenwing Gryphon; Amberwood, Direwolf Burrow, Shimmercliff Rookery) --
@effect("activate_mana_token", ("when_played", "when_bought"))
def _activate_mana_token(st: State, p: int, ab: Ability, data: dict) -> None:
    """If your mana token is face down, turn it face up (Goldenwing Gryphon, file 000).

    Bought vales with this ability (yucata notes): a token already face up is first spent
    for its 1 mana, then turned face up again.  (A player could do the same by spending the
    token just before buying, so this holds in every rule set.)
    """
    pl = st.players[p]
    who = _source_name(st, data)
    if not pl.mana_token_active:
        pl.mana_token_active = True
        log(st, "ability", p, f"Player {p + 1} turns the mana token face up ({who}).")
        return
    if ab.trigger == "when_bought" and st.turn.player == p and st.turn.phase == "harvest":
        st.turn.mana_bonus += 1
        log(st, "ability", p, f"Player {p + 1} spends the face-up mana token for 1 mana and turns it "
            f"face up again ({who}).", amount=1)


# -- Harvest: Canopy Explorer --------------------------------------------------------------
@effect("field_from_deck_per_symbol", ("harvest",), {"symbol": str})
def _field_from_deck(st: State, p: int, ab: Ability, data: dict) -> None:
    """For each ``symbol`` on this card, put the top card of your deck (below the on-deck
    card) into your field as the rightmost card; exactly that many (file 000, Canopy
    Explorer).  An empty deck is refilled from the discard pile.  The cards count in the
    Harvest (their mana, spirits and VP), but it is too late for growth and When Played."""
    from ..harvest import score_card

    n = stats(st, data["card"]).get(ab.param("symbol", "guardian"))
    pl = st.players[p]
    for _ in range(n):
        c = take_top(st, p)
        if c is None:
            log(st, "ability", p, f"Player {p + 1} has no more cards in deck and discard pile.")
            break
        pl.field.append(c)
        log(st, "ability", p, f"Player {p + 1} puts {card_name(st, c)} from the deck into the field "
            f"({card_name(st, data['card'])}).", card=c)
        score_card(st, p, c)


def _field_from_deck_usable(st: State, p: int, ab: Ability, data: dict) -> bool:
    pl = st.players[p]
    return stats(st, data["card"]).get(ab.param("symbol", "guardian")) > 0 and bool(pl.deck or pl.discard)


_USABLE["field_from_deck_per_symbol"] = _field_from_deck_usable


# -- Harvest: Ley Line Overflow ----------------------------------------------------------
@effect("double_mana", ("harvest",))
def _double_mana(st: State, p: int, ab: Ability, data: dict) -> None:
    """Double your mana: gain as much mana as you have left to spend now (file 000, Ley Line
    Overflow: best used last; two of them quadruple)."""
    from ..harvest import mana_available

    n = mana_available(st)
    st.turn.mana_bonus += n
    log(st, "ability", p, f"Player {p + 1} doubles the mana to {2 * n} ({_source_name(st, data)}).", amount=n)


def _double_mana_usable(st: State, p: int, ab: Ability, data: dict) -> bool:
    from ..harvest import mana_available

    return mana_available(st) > 0


_USABLE["double_mana"] = _double_mana_usable


# -- Harvest: Vale of Magic ------------------------------------------------------------------
@effect("gain_vp", ("harvest", "when_bought", "when_played"), {"amount": int})
def _gain_vp(st: State, p: int, ab: Ability, data: dict) -> None:
    """Gain ``amount`` VP tokens from the VP pool (Vale of Magic: once every Harvest phase)."""
    gain_vp(st, p, ab.param("amount", 1), why=_source_name(st, data))


# -- Harvest: Manadew Meadow (provisional) -------------------------------------------------
def _guardian_cards(st: State, p: int) -> list[int]:
    return [c for c in st.players[p].field if stats(st, c).get("guardian") > 0]


@effect("mana_per_guardian_on_field_card", ("harvest",))
def _manadew(st: State, p: int, ab: Ability, data: dict) -> None:
    """Choose a card in your field; gain 1 mana for each guardian on it (provisional text).
    The yucata rule set chooses the card with the most guardians (the leftmost if tied);
    otherwise the player chooses when the cards differ."""
    cards = _guardian_cards(st, p)
    if not cards:
        log(st, "ability", p, f"Player {p + 1} has no guardian in the field ({_source_name(st, data)}).")
        return
    counts = {c: stats(st, c).get("guardian") for c in cards}
    if st.ruleset.manadew_auto_target or len(set(counts.values())) == 1:
        best = max(counts.values())
        _manadew_gain(st, p, next(c for c in cards if counts[c] == best))
        return
    # One option per distinct guardian count (the leftmost card with it): the same choice.
    options: dict[int, int] = {}
    for c in cards:
        options.setdefault(counts[c], c)
    ask(st, "manadew_target", p, cards=sorted(options.values(), key=cards.index))


def _manadew_gain(st: State, p: int, card: int) -> None:
    n = stats(st, card).get("guardian")
    st.turn.mana_bonus += n
    log(st, "ability", p, f"Player {p + 1} gains {n} mana for the guardians on {card_name(st, card)}.",
        amount=n)


def _manadew_legal(st: State, pd) -> list[Action]:
    return [Action("choose", (f"#{c}",)) for c in pd.data["cards"]]


@decision("manadew_target", _manadew_legal, lambda st, pd: "choosing a card for Manadew Meadow")
def _manadew_apply(st: State, pd, action: Action) -> None:
    _manadew_gain(st, pd.player, int(action.args[0][1:]))


_USABLE["mana_per_guardian_on_field_card"] = lambda st, p, ab, data: bool(_guardian_cards(st, p))


# -- When Played: Lifetap Oracle -----------------------------------------------------------
@effect("search_deck_discard_per_symbol", ("when_played",), {"symbol": str})
def _lifetap(st: State, p: int, ab: Ability, data: dict) -> None:
    """For each ``symbol`` on this card, search your deck for any card and you may discard
    it; then shuffle your deck (not the discard pile).  With an empty deck, first shuffle the
    discard pile into a new deck (file 000, Lifetap Oracle)."""
    n = stats(st, data["card"]).get(ab.param("symbol", "guardian"))
    if n <= 0:
        return
    ensure_deck(st, p)
    if st.players[p].deck:
        ask(st, "search_deck_n", p, private=sorted(st.players[p].deck), left=n,
            source=_source_name(st, data))


def _search_n_legal(st: State, pd) -> list[Action]:
    return [Action("discard", (f"#{c}",)) for c in distinct_cards(st, st.players[pd.player].deck)] \
        + [Action("skip")]


@decision("search_deck_n", _search_n_legal,
          lambda st, pd: f"searching the deck ({pd.data.get('left', 1)} search(es) left)")
def _search_n_apply(st: State, pd, action: Action) -> None:
    p = pd.player
    pl = st.players[p]
    left = int(pd.data["left"])
    if action.verb == "discard":
        discard_searched(st, p, int(action.args[0][1:]))
        left -= 1
        if left > 0 and pl.deck:
            ask(st, "search_deck_n", p, private=sorted(pl.deck), left=left, source=pd.data.get("source", ""))
            return
    else:
        # Searching again without discarding would find the same deck: the rest are skipped.
        log(st, "ability", p, f"Player {p + 1} stops searching the deck.")
    shuffle_deck(st, p)
    log(st, "ability", p, f"Player {p + 1} shuffles the deck.")


# -- Discard: Hatchery -------------------------------------------------------------------------
@effect("keep_in_field", ("discard",))
def _hatchery(st: State, p: int, ab: Ability, data: dict) -> None:
    """If this card is not the first (leftmost) card of your field, you may keep it in your
    field: it becomes the first card of your next field (file 000, Hatchery).  Several kept
    cards keep the order their abilities resolved in (the active player's order).  "First"
    is the leftmost card of this turn's field, so a card kept last turn (now first) is
    discarded as normal."""
    card = data["card"]
    pl = st.players[p]
    if card not in pl.field or card in st.turn.kept:
        return
    if pl.field[0] == card:
        log(st, "ability", p, f"{card_name(st, card)} is the first card in the field and is discarded as normal.")
        return
    ask(st, "keep_in_field", p, card=card)


def _keep_legal(st: State, pd) -> list[Action]:
    c = f"#{pd.data['card']}"
    return [Action("keep", (c,)), Action("discard", (c,))]


@decision("keep_in_field", _keep_legal, lambda st, pd: "deciding whether to keep a card in the field")
def _keep_apply(st: State, pd, action: Action) -> None:
    p = pd.player
    card = pd.data["card"]
    if action.verb == "keep":
        st.turn.kept.append(card)
        log(st, "ability", p, f"Player {p + 1} keeps {card_name(st, card)} in the field for the next turn.",
            card=card)
    else:
        log(st, "ability", p, f"Player {p + 1} discards {card_name(st, card)} as normal.", card=card)


# -- After spoiling: Conclave of Ents (provisional) ---------------------------------------------
@effect("keep_field_card", ("on_spoil",))
def _conclave(st: State, p: int, ab: Ability, data: dict) -> None:
    """After you spoil, you may choose a card in your field: it is not discarded and becomes
    the first card of your next field (provisional text, docs/rules-decisions.md)."""
    options = [c for c in st.players[p].field if c not in st.turn.kept]
    if options:
        ask(st, "keep_field_card", p, cards=options, source=_source_name(st, data))


def _conclave_legal(st: State, pd) -> list[Action]:
    field = st.players[pd.player].field
    return [Action("keep", (f"#{c}",)) for c in pd.data["cards"] if c in field] + [Action("skip")]


@decision("keep_field_card", _conclave_legal, lambda st, pd: "choosing a field card to keep after spoiling")
def _conclave_apply(st: State, pd, action: Action) -> None:
    p = pd.player
    if action.verb == "skip":
        return
    card = int(action.args[0][1:])
    st.turn.kept.append(card)
    log(st, "ability", p, f"Player {p + 1} keeps {card_name(st, card)} in the field after spoiling "
        f"({pd.data.get('source', '')}).", card=card)


# -- When Bought: Fauna Hollow, Sunwell Temple, Wood Sprite Hoard ------------------------------
@effect("gain_mana", ("when_bought", "harvest"), {"amount": int})
def _gain_mana(st: State, p: int, ab: Ability, data: dict) -> None:
    """Gain ``amount`` mana to spend this turn (Fauna Hollow: 2)."""
    n = ab.param("amount", 1)
    st.turn.mana_bonus += n
    log(st, "ability", p, f"Player {p + 1} gains {n} mana ({_source_name(st, data)}).", amount=n)


@effect("gain_top_vale", ("when_bought",), {"level": int})
def _sunwell(st: State, p: int, ab: Ability, data: dict) -> None:
    """Take the top card of the level-``level`` vale deck and add it to your vales (file 000,
    Sunwell Temple).  Its ability may not be used this turn and its When Bought ability gives
    nothing; it is not a buy (no spirit cost, not one of the two vale buys)."""
    from ..harvest import gain_vale

    level = ab.param("level", 1)
    deck = st.vale_decks.get(level, [])
    if not deck:
        log(st, "ability", p, f"The level-{level} vale deck is empty ({_source_name(st, data)}).")
        return
    v = deck.pop()
    gain_vale(st, p, v, when_bought=False)
    name = st.cat.vale_list[st.vale_types[v]].name
    log(st, "vale", p, f"Player {p + 1} adds {name} from the top of the level-{level} vale deck "
        f"({_source_name(st, data)}).", vale=name)


@effect("look_top_discard_any", ("when_bought", "when_played"), {"count": int})
def _wood_sprite(st: State, p: int, ab: Ability, data: dict) -> None:
    """Look at the top ``count`` face-down cards of your deck (the on-deck card is not in the
    deck); discard any of them; the rest go back face down in the same order, which you now
    know.  With fewer cards in the deck, look at all of them (no reshuffle) (file 000, Wood
    Sprite Hoard; yucata notes: the order of the returned cards is shown)."""
    pl = st.players[p]
    n = min(ab.param("count", 3), len(pl.deck))
    if n == 0:
        log(st, "ability", p, f"Player {p + 1} has no cards in the deck to look at ({_source_name(st, data)}).")
        return
    looked = list(reversed(pl.deck[-n:]))          # top first
    old = pl.known_top
    below = old[:-n] if len(old) > n and old[-n:] == pl.deck[-n:] else []
    names = ", ".join(card_name(st, c) for c in looked)
    log(st, "ability", p, f"Player {p + 1} looks at the top {n} card(s) of the deck: {names}.",
        private_to=p, public_text=f"Player {p + 1} looks at the top {n} card(s) of the deck.")
    ask(st, "look_discard_any", p, private=looked, cards=looked, below=below)


def _look_any_legal(st: State, pd) -> list[Action]:
    return [Action("discard", (f"#{c}",)) for c in pd.data["cards"]] + [Action("keep")]


@decision("look_discard_any", _look_any_legal, lambda st, pd: "looking at the top cards of the deck")
def _look_any_apply(st: State, pd, action: Action) -> None:
    p = pd.player
    pl = st.players[p]
    cards = list(pd.data["cards"])
    below = list(pd.data.get("below", []))
    if action.verb == "discard":
        c = int(action.args[0][1:])
        cards.remove(c)
        discard_looked_at(st, p, c)
        if cards:
            ask(st, "look_discard_any", p, private=cards, cards=cards, below=below)
            return
    # The rest are back on top in the order they were drawn; the player knows that order.
    pl.known_top = below + list(reversed(cards))
    if cards:
        log(st, "ability", p, f"Player {p + 1} puts {len(cards)} card(s) back in the same order.")

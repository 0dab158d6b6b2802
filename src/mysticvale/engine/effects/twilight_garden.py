"""Effects of the Twilight Garden expansion (file 003, Card Clarifications).

Every ability here follows the clarification text of its card in file 003; where that
text leaves a choice open, our reading is recorded in docs/rules-decisions.md
("Twilight Garden").  Choices are pending decisions for the player the rules name: an
opponent answers Deepwood Veteran and Le Que, the owner of Echoing Waterfalls answers
when someone else spoils.  What a player looks at privately (Truesight Archer, Sorcel,
Ranger Captain, Snapjaw) is kept in ``Pending.private`` / shown only to that player.

The leader abilities are in :mod:`mysticvale.engine.leaders`, imported at the end of
this module so that importing the effects package registers them too.
"""

from __future__ import annotations

from ..actions import Action
from ..card_types import Ability
from ..registry import decision, effect, step
from ..state import Purchase, State, Step
from ..zones import (
    discard_looked_at,
    ask, card_name, discard_card, gain_curse, gain_vp, log, mark_seen, reveal, schedule, stats,
    take_from_deck, take_top,
)
from .base import _USABLE, distinct_cards


def _vale_name(st: State, v: int) -> str:
    return st.cat.vale_list[st.vale_types[v]].name


def _opponents(st: State, p: int) -> list[int]:
    """The other seats in turn order, starting after ``p``."""
    n = len(st.players)
    return [(p + i) % n for i in range(1, n)]


# ==================================================================================
# Harvest: mana from a small field (Frostmarch Glacier, Raincaller Rock)
# ==================================================================================
@effect("mana_below_field_count", ("harvest",), {"below": int})
def _mana_below(st: State, p: int, ab: Ability, data: dict) -> None:
    """Gain mana equal to ``below`` minus the cards in your field, never less than 0
    (file 003: Frostmarch Glacier 6, Raincaller Rock 5)."""
    n = max(0, int(ab.param("below", 6)) - len(st.players[p].field))
    st.turn.mana_bonus += n
    log(st, "ability", p, f"Player {p + 1} gains {n} mana ({ab.param('below', 6)} minus the cards in the field).",
        amount=n)


# ==================================================================================
# Harvest: mana tokens (Daybreak Herald)
# ==================================================================================
@effect("all_mana_tokens_active", ("harvest",), {})
def _daybreak(st: State, p: int, ab: Ability, data: dict) -> None:
    """Every player whose mana token is on its used side turns it to the active side
    (file 003: all of them or none, the user included)."""
    turned = []
    for q, pl in enumerate(st.players):
        if not pl.mana_token_active:
            pl.mana_token_active = True
            turned.append(q)
    who = ", ".join(f"player {q + 1}" for q in turned) or "nobody"
    log(st, "ability", p, f"Player {p + 1}'s Daybreak Herald turns mana tokens active: {who}.")


_USABLE["all_mana_tokens_active"] = lambda st, p, ab, d: any(not pl.mana_token_active for pl in st.players)


# ==================================================================================
# Harvest: curse tokens (Herbalist)
# ==================================================================================
@effect("discard_curse_token", ("harvest",), {"amount": int})
def _herbalist(st: State, p: int, ab: Ability, data: dict) -> None:
    """Discard one of your own curse tokens, back to the pool (file 003, Herbalist)."""
    pl = st.players[p]
    n = min(pl.curse_tokens, int(ab.param("amount", 1)))
    if n <= 0:
        return
    pl.curse_tokens -= n
    st.curse_supply_taken -= n
    log(st, "ability", p, f"Player {p + 1} returns {n} curse token(s) to the pool.", amount=n)


_USABLE["discard_curse_token"] = lambda st, p, ab, d: st.players[p].curse_tokens > 0


# ==================================================================================
# Harvest: Deepwood Veteran - each opponent gives a VP token or takes 2 curse tokens
# ==================================================================================
@effect("opponents_give_vp_or_curse", ("harvest",), {"curse": int})
def _deepwood(st: State, p: int, ab: Ability, data: dict) -> None:
    """Each opponent either gives you one VP token or gains ``curse`` curse tokens; one
    without VP tokens must take the curse tokens (file 003).  Each opponent decides."""
    n = int(ab.param("curse", 2))
    schedule(st, *[Step("deepwood_ask", q, {"to": p, "curse": n}) for q in _opponents(st, p)])



@step("deepwood_ask")
def _deepwood_ask(st: State, s: Step) -> None:
    q, to, n = s.player, s.data["to"], s.data["curse"]
    if st.players[q].vp_tokens <= 0:
        gain_curse(st, q, n, why=f"Deepwood Veteran of player {to + 1}; no VP token to give")
        return
    ask(st, "deepwood_veteran", q, to=to, curse=n)


def _deepwood_legal(st: State, pd) -> list[Action]:
    return [Action("give", ("vp",)), Action("choose", ("curses",))]


@decision("deepwood_veteran", _deepwood_legal,
          lambda st, pd: f"player {pd.player + 1} gives player {pd.data['to'] + 1} a VP token or "
                         f"takes {pd.data['curse']} curse tokens (Deepwood Veteran)")
def _deepwood_apply(st: State, pd, action: Action) -> None:
    q, to = pd.player, pd.data["to"]
    if action.verb == "give":
        st.players[q].vp_tokens -= 1
        st.players[to].vp_tokens += 1
        log(st, "ability", q, f"Player {q + 1} gives player {to + 1} one VP token (Deepwood Veteran).")
    else:
        gain_curse(st, q, pd.data["curse"], why=f"Deepwood Veteran of player {to + 1}")


# ==================================================================================
# Harvest: Griffin Rider - one more vale buy; give a level-2 vale, claim two level-1
# ==================================================================================
@effect("extra_vale_and_swap", ("harvest",), {})
def _griffin(st: State, p: int, ab: Ability, data: dict) -> None:
    """You may buy one more vale this turn; you may also give one of your level-2 vales to
    an opponent and claim up to two of that opponent's level-1 vales (file 003).  No When
    Bought effects; the claimed vales do not count towards the buy limit."""
    st.turn.vale_limit += 1
    log(st, "ability", p, f"Player {p + 1} may buy one more vale this turn (Griffin Rider).")
    if _griffin_gives(st, p):
        ask(st, "griffin_give", p)


def _vale_level(st: State, v: int) -> int:
    return st.cat.vale_list[st.vale_types[v]].level


def _griffin_gives(st: State, p: int) -> list[Action]:
    mine = [pos for pos, v in enumerate(st.players[p].vales) if _vale_level(st, v) == 2]
    targets = [q for q in _opponents(st, p) if any(_vale_level(st, v) == 1 for v in st.players[q].vales)]
    return [Action("give", (f"vale.{pos + 1}", f"p{q + 1}")) for pos in mine for q in targets]


@decision("griffin_give", lambda st, pd: _griffin_gives(st, pd.player) + [Action("skip")],
          lambda st, pd: "may give a level-2 vale to claim level-1 vales (Griffin Rider)")
def _griffin_give_apply(st: State, pd, action: Action) -> None:
    p = pd.player
    if action.verb == "skip":
        return
    pos = int(action.args[0].split(".")[1]) - 1
    q = int(action.args[1][1:]) - 1
    v = st.players[p].vales.pop(pos)
    st.players[q].vales.append(v)
    log(st, "ability", p, f"Player {p + 1} gives the vale {_vale_name(st, v)} to player {q + 1} (Griffin Rider).")
    ask(st, "griffin_claim", p, opponent=q, left=2)


def _griffin_claim_legal(st: State, pd) -> list[Action]:
    q = pd.data["opponent"]
    out = [Action("take", (f"vale.{pos + 1}",)) for pos, v in enumerate(st.players[q].vales)
           if _vale_level(st, v) == 1]
    return out + [Action("skip")]


@decision("griffin_claim", _griffin_claim_legal,
          lambda st, pd: f"claiming up to {pd.data['left']} level-1 vale(s) of player {pd.data['opponent'] + 1}")
def _griffin_claim_apply(st: State, pd, action: Action) -> None:
    from ..harvest import gain_vale

    p, q = pd.player, pd.data["opponent"]
    if action.verb == "skip":
        return
    pos = int(action.args[0].split(".")[1]) - 1
    v = st.players[q].vales.pop(pos)
    gain_vale(st, p, v, when_bought=False)
    log(st, "ability", p, f"Player {p + 1} claims the vale {_vale_name(st, v)} from player {q + 1} (Griffin Rider).")
    left = pd.data["left"] - 1
    if left > 0 and any(_vale_level(st, x) == 1 for x in st.players[q].vales):
        ask(st, "griffin_claim", p, opponent=q, left=left)


# ==================================================================================
# Harvest: look at a supply deck's top card and take it free (Ranger Captain, Snapjaw)
# ==================================================================================
@effect("free_top_vale", ("harvest",), {"level": int})
def _ranger(st: State, p: int, ab: Ability, data: dict) -> None:
    """Look at the top card of the level-``level`` vale deck privately; you may take it
    free (When Bought effects trigger; it does not count towards the buy limit) or put it
    back (file 003, Ranger Captain)."""
    deck = st.vale_decks.get(int(ab.param("level", 1)), [])
    if not deck:
        log(st, "ability", p, f"Player {p + 1}'s vale deck to look at is empty.")
        return
    ask(st, "ranger_captain", p, looked_vale=deck[-1], level=int(ab.param("level", 1)), shows="vale")


_USABLE["free_top_vale"] = lambda st, p, ab, d: bool(st.vale_decks.get(int(ab.param("level", 1))))


@decision("ranger_captain", lambda st, pd: [Action("take", ("vale",)), Action("skip")],
          lambda st, pd: f"looking at the top level-{pd.data['level']} vale (Ranger Captain)")
def _ranger_apply(st: State, pd, action: Action) -> None:
    from ..harvest import gain_vale

    p, v, level = pd.player, pd.data["looked_vale"], pd.data["level"]
    if action.verb == "skip" or v not in st.vale_decks[level]:
        log(st, "ability", p, f"Player {p + 1} puts {_vale_name(st, v)} back on the vale deck.",
            private_to=p, public_text=f"Player {p + 1} puts the vale back on top of the deck.")
        return
    st.vale_decks[level].remove(v)
    log(st, "ability", p, f"Player {p + 1} takes the vale {_vale_name(st, v)} for free (Ranger Captain).")
    gain_vale(st, p, v, when_bought=True)


def gain_free_copy(st: State, p: int, copy: int) -> None:
    """An advancement gained for free outside the commons: bought, to be sleeved in the
    Discard phase, When Bought effects trigger, not counted as a buy (file 003)."""
    from ..harvest import add_purchase
    add_purchase(st, p, copy)


def _placeable(st: State, copy: int) -> bool:
    from ..harvest import placement_exists
    return placement_exists(st, st.turn.purchases + [Purchase(copy)])


@effect("free_top_advancement", ("harvest",), {"level": int})
def _snapjaw(st: State, p: int, ab: Ability, data: dict) -> None:
    """Look at the top card of the level-``level`` advancement deck privately; you may take
    it free if you can sleeve it, or put it back (file 003, Snapjaw)."""
    level = int(ab.param("level", 3))
    deck = st.adv_decks.get(level, [])
    if not deck:
        log(st, "ability", p, f"Player {p + 1}'s advancement deck to look at is empty.")
        return
    ask(st, "snapjaw", p, copy=deck[-1], level=level, shows="copy")


_USABLE["free_top_advancement"] = lambda st, p, ab, d: bool(st.adv_decks.get(int(ab.param("level", 3))))


def _snapjaw_legal(st: State, pd) -> list[Action]:
    out = [Action("take", (f"adv.{pd.data['level']}",))] if _placeable(st, pd.data["copy"]) else []
    return out + [Action("skip")]


@decision("snapjaw", _snapjaw_legal,
          lambda st, pd: f"looking at the top level-{pd.data['level']} advancement (Snapjaw)")
def _snapjaw_apply(st: State, pd, action: Action) -> None:
    p, copy, level = pd.player, pd.data["copy"], pd.data["level"]
    if action.verb == "skip" or copy not in st.adv_decks[level]:
        log(st, "ability", p, f"Player {p + 1} puts {st.cat.label(copy)} back on the deck.",
            private_to=p, public_text=f"Player {p + 1} puts the advancement back on top of the deck.")
        return
    deck = st.adv_decks[level]
    del deck[len(deck) - 1 - deck[::-1].index(copy)]
    log(st, "ability", p, f"Player {p + 1} takes {st.cat.label(copy)} for free (Snapjaw).", copy=st.cat.label(copy))
    gain_free_copy(st, p, copy)


# ==================================================================================
# Harvest: Rockspine Zenith - a free advancement from the commons
# ==================================================================================
def _rockspine_options(st: State, ab: Ability):
    from ..harvest import buy_options
    return buy_options(st, free=True, min_cost=int(ab.param("min_cost", 1)),
                       max_cost=int(ab.param("max_cost", 14)))


@effect("free_commons_advancement", ("harvest",), {"min_cost": int, "max_cost": int})
def _rockspine(st: State, p: int, ab: Ability, data: dict) -> None:
    """Buy for free one advancement of the commons (Fertile Soil included) costing from
    ``min_cost`` to ``max_cost``; When Bought effects trigger; not counted as a buy
    (file 003, Rockspine Zenith)."""
    if _rockspine_options(st, ab):
        ask(st, "rockspine_zenith", p, min_cost=int(ab.param("min_cost", 1)), max_cost=int(ab.param("max_cost", 14)))


_USABLE["free_commons_advancement"] = lambda st, p, ab, d: bool(_rockspine_options(st, ab))


def _rockspine_legal(st: State, pd) -> list[Action]:
    from ..harvest import buy_options
    opts = buy_options(st, free=True, min_cost=pd.data["min_cost"], max_cost=pd.data["max_cost"])
    seen: list[Action] = []
    for market, _c, _t, _pr in opts:
        a = Action("buy", (market,))
        if a not in seen:
            seen.append(a)
    return seen + [Action("skip")]


@decision("rockspine_zenith", _rockspine_legal, lambda st, pd: "choosing a free advancement (Rockspine Zenith)")
def _rockspine_apply(st: State, pd, action: Action) -> None:
    from ..harvest import buy_advancement, buy_options
    if action.verb == "skip":
        return
    for market, copy, _t, _pr in buy_options(st, free=True, min_cost=pd.data["min_cost"],
                                             max_cost=pd.data["max_cost"]):
        if market == action.args[0]:
            buy_advancement(st, pd.player, market, copy, None, 0, counts=False)
            return


# ==================================================================================
# Harvest: Rotted Weald - the bottom card of the deck into the field
# ==================================================================================
@effect("bottom_card_into_field", ("harvest",), {})
def _rotted_weald(st: State, p: int, ab: Ability, data: dict) -> None:
    """Place the bottom card of your deck at the end of your field (shuffling the discard
    pile into a new deck first if the deck is empty).  It is placed, not played: no When
    Played effect; its VP and curse symbols count in this Harvest (our reading)."""
    from ..harvest import score_card
    from ..zones import shuffle_discard_into_deck

    pl = st.players[p]
    if not pl.deck and pl.discard:
        shuffle_discard_into_deck(st, p)
    if not pl.deck:
        return
    c = pl.deck[0]
    take_from_deck(st, p, c)
    pl.field.append(c)
    mark_seen(st, c)
    log(st, "ability", p, f"Player {p + 1} places {card_name(st, c)} from the bottom of the deck into the field.")
    score_card(st, p, c)


_USABLE["bottom_card_into_field"] = lambda st, p, ab, d: bool(st.players[p].deck or st.players[p].discard)


# ==================================================================================
# When Played: look at the top cards of the deck (Truesight Archer; Sorcel, Le Que)
# ==================================================================================
def top_cards(st: State, p: int, n: int) -> list[int]:
    """The top ``n`` cards of the deck, top first, left in the deck.  If the deck has fewer,
    the discard pile is shuffled into a new deck *below* them and the look goes on; with
    still too few, all of them (file 003, Truesight Archer / Sorcel)."""
    pl = st.players[p]
    if len(pl.deck) < n and pl.discard:
        new = list(pl.discard)
        pl.discard = []
        st.rng.shuffle(f"deck{p}", new)
        pl.deck = new + pl.deck
        log(st, "shuffle", p, f"Player {p + 1} shuffles the discard pile into a new deck.")
    k = min(n, len(pl.deck))
    return list(reversed(pl.deck[len(pl.deck) - k:]))


def look_top(st: State, p: int, n: int, source: str) -> None:
    """Open the look-at-the-top-``n`` decision: discard any, put the rest back in any order."""
    cards = top_cards(st, p, n)
    if not cards:
        return
    log(st, "ability", p, f"Player {p + 1} looks at the top {len(cards)} card(s) of the deck ({source}): "
        + ", ".join(card_name(st, c) for c in cards) + ".",
        private_to=p, public_text=f"Player {p + 1} looks at the top {len(cards)} card(s) of the deck ({source}).")
    ask(st, "look_top_n", p, private=cards, cards=cards, source=source)


@effect("look_top_per_guardian", ("when_played",), {})
def _truesight(st: State, p: int, ab: Ability, data: dict) -> None:
    """Look at one card from the top of your deck per guardian on this card; discard any
    of them, put the rest back in any order (file 003, Truesight Archer)."""
    n = stats(st, data["card"]).get("guardian")
    if n > 0:
        look_top(st, p, n, "Truesight Archer")


@effect("look_top_n", ("when_played",), {"count": int})
def _look_top_n(st: State, p: int, ab: Ability, data: dict) -> None:
    """Look at the top ``count`` cards of your deck (the on-deck card is not part of it);
    discard any, put the rest back in any order (file 003, Sorcel and Le Que)."""
    name = st.cat.copies[st.cards[data["card"]][data["layer"]]].type.name if "card" in data else "ability"
    look_top(st, p, int(ab.param("count", 2)), name)


def _look_legal(st: State, pd) -> list[Action]:
    cards = pd.data["cards"]
    return [Action("discard", (f"#{c}",)) for c in distinct_cards(st, cards)] + [Action("keep")]


@decision("look_top_n", _look_legal, lambda st, pd: f"looking at the top cards of the deck ({pd.data['source']})")
def _look_apply(st: State, pd, action: Action) -> None:
    p = pd.player
    cards = list(pd.data["cards"])
    if action.verb == "discard":
        c = int(action.args[0][1:])
        cards.remove(c)
        discard_looked_at(st, p, c)
        if cards:
            ask(st, "look_top_n", p, private=cards, cards=cards, source=pd.data["source"])
        return
    _order_next(st, p, cards, [])


def _order_next(st: State, p: int, left: list[int], placed: list[int]) -> None:
    """Put the kept cards back one at a time, top first; the last goes by itself."""
    if len(distinct_cards(st, left)) <= 1:
        placed = placed + left
        pl = st.players[p]
        k = len(placed)
        rest = [c for c in pl.deck if c not in placed]
        pl.deck = rest + list(reversed(placed))
        pl.known_top = list(reversed(placed))
        if k:
            log(st, "ability", p, f"Player {p + 1} puts back " + ", ".join(card_name(st, c) for c in placed)
                + " (top first).", private_to=p, public_text=f"Player {p + 1} puts {k} card(s) back on the deck.")
        return
    ask(st, "order_top", p, private=left, left=left, placed=placed)


def _order_top_legal(st: State, pd) -> list[Action]:
    return [Action("order", (f"#{c}",)) for c in distinct_cards(st, pd.data["left"])]


@decision("order_top", _order_top_legal, lambda st, pd: "putting cards back on the deck")
def _order_top_apply(st: State, pd, action: Action) -> None:
    c = int(action.args[0][1:])
    left = list(pd.data["left"])
    left.remove(c)
    _order_next(st, pd.player, left, list(pd.data["placed"]) + [c])


# ==================================================================================
# When Played: Lore Keeper - reveal until two Cursed Lands, keep one in the field
# ==================================================================================
@effect("reveal_until_cursed_lands", ("when_played",), {"count": int})
def _lore_keeper(st: State, p: int, ab: Ability, data: dict) -> None:
    """Reveal cards one at a time from the top of your deck until ``count`` cards with a
    Cursed Land are revealed (shuffling the discard pile in when the deck runs out; with
    too few, all).  Put one revealed card into your field (placed: no When Played), the
    rest into your discard pile (file 003)."""
    pl = st.players[p]
    want = int(ab.param("count", 2))
    found = 0
    while found < want:
        c = take_top(st, p)
        if c is None:
            break
        pl.aside.append(c)
        mark_seen(st, c)
        found += stats(st, c).has_cursed_land
        log(st, "ability", p, f"Player {p + 1} reveals {card_name(st, c)} (Lore Keeper).")
    if pl.aside:
        ask(st, "lore_keeper", p)


def _lore_legal(st: State, pd) -> list[Action]:
    return [Action("take", (f"#{c}",)) for c in distinct_cards(st, st.players[pd.player].aside)]


@decision("lore_keeper", _lore_legal, lambda st, pd: "choosing a revealed card for the field (Lore Keeper)")
def _lore_apply(st: State, pd, action: Action) -> None:
    p = pd.player
    pl = st.players[p]
    c = int(action.args[0][1:])
    pl.field.append(c)
    for x in pl.aside:
        if x != c:
            discard_card(st, p, x)
    pl.aside = []
    log(st, "ability", p, f"Player {p + 1} places {card_name(st, c)} into the field; the other revealed "
        "cards go to the discard pile.")


# ==================================================================================
# On spoiling: Spirits of Decay, Witches of Deephollow
# ==================================================================================
@effect("curse_per_curse_symbol", ("on_spoil",), {})
def _spirits_of_decay(st: State, p: int, ab: Ability, data: dict) -> None:
    """When you spoil with this card in the field, gain curse tokens equal to the curse
    symbols on this card (printed symbols only, text ignored: file 003)."""
    from ..card_types import SYMBOLS
    n = stats(st, data["card"]).printed[SYMBOLS.index("curse")]
    gain_curse(st, p, n, why="Spirits of Decay")


@effect("vp_per_missing_card_and_extra_turn", ("on_spoil",), {"below": int})
def _witches(st: State, p: int, ab: Ability, data: dict) -> None:
    """When you spoil with this card in the field: gain 1 VP token per card fewer than
    ``below`` (9) in your field, then take another turn after this one (file 003)."""
    n = max(0, int(ab.param("below", 9)) - len(st.players[p].field))
    gain_vp(st, p, n, why="Witches of Deephollow")
    st.extra_turns.append(p)
    log(st, "ability", p, f"Player {p + 1} will take another turn (Witches of Deephollow).")


# ==================================================================================
# Vales: Echoing Waterfalls (an opponent spoils), Flame Geysers (when bought)
# ==================================================================================
@effect("redraw_on_deck_on_opponent_spoil", ("opponent_spoil",), {})
def _echoing(st: State, q: int, ab: Ability, data: dict) -> None:
    """When an opponent spoils you may discard your on-deck card and reveal a new one
    (file 003, Echoing Waterfalls).  A resulting spoil waits for your Planting phase."""
    if st.players[q].on_deck is not None:
        ask(st, "echoing_waterfalls", q, spoiler=data.get("spoiler"))


def _echo_legal(st: State, pd) -> list[Action]:
    od = st.players[pd.player].on_deck
    return ([Action("discard", (f"#{od}",))] if od is not None else []) + [Action("keep")]


@decision("echoing_waterfalls", _echo_legal,
          lambda st, pd: f"player {pd.player + 1} may replace the on-deck card (Echoing Waterfalls)")
def _echo_apply(st: State, pd, action: Action) -> None:
    q = pd.player
    pl = st.players[q]
    if action.verb == "keep" or pl.on_deck is None:
        return
    old = pl.on_deck
    pl.on_deck = None
    discard_card(st, q, old)
    log(st, "ability", q, f"Player {q + 1} discards the on-deck {card_name(st, old)} (Echoing Waterfalls).")
    reveal(st, q)


@effect("all_gain_per_vale_negative_vp", ("when_bought",), {})
def _flame_geysers(st: State, p: int, ab: Ability, data: dict) -> None:
    """Choose: every player gains curse tokens, or every player gains VP tokens from the
    reserve (not the pool), equal to the negative VP on that player's vales (file 003)."""
    log(st, "ability", p, f"Player {p + 1}'s Flame Geysers: every player will gain curse tokens or VP tokens "
        "equal to the negative VP on their vales.")
    ask(st, "flame_geysers", p)


def _vale_neg(st: State, q: int) -> int:
    return sum(st.cat.vale_list[st.vale_types[v]].neg_vp for v in st.players[q].vales)


@decision("flame_geysers", lambda st, pd: [Action("choose", ("curses",)), Action("choose", ("vp",))],
          lambda st, pd: "choosing curse tokens or VP tokens for all players (Flame Geysers)")
def _flame_apply(st: State, pd, action: Action) -> None:
    what = action.args[0]
    log(st, "ability", pd.player, f"Player {pd.player + 1} chooses {'curse' if what == 'curses' else 'VP'} "
        "tokens for every player (Flame Geysers).")
    for q in range(len(st.players)):
        n = _vale_neg(st, q)
        if what == "curses":
            gain_curse(st, q, n, why="Flame Geysers")
        else:
            gain_vp(st, q, n, from_reserve=True, why="Flame Geysers")


# Leader abilities register from their own module.
from .. import leaders as _leaders  # noqa: E402,F401

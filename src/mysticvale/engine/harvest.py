"""The Harvest phase: mana and spirit symbols, Harvest abilities, VP and curse tokens,
vale and advancement buys, the mana token, and (yucata) the spirit trade.

Everything in the Harvest may be done in any order (file 000), so each of these is an
action the player picks; the phase ends with ``finish``.
"""

from __future__ import annotations

from .actions import Action
from .card_types import SLOTS, SPIRITS, SYMBOLS
from .flow import ability_of, ability_ref, card_abilities
from . import leaders as _leaders   # leaders.py loads this module while it registers itself
from .effects.base import usable
from .registry import HARVEST, step
from .state import Purchase, State, Step
from .zones import card_name, field_sum, field_totals, gain_curse, gain_vp, log, schedule, stats

SPIRIT_TRADE = 3   # spare spirit symbols per VP (German rules, yucata)
MAX_ADV_BUYS = 2
MAX_VALE_BUYS = 2


# -- resources ---------------------------------------------------------------------
def mana_available(st: State) -> int:
    t = st.turn
    return field_sum(st, t.player, "mana") + t.mana_bonus - t.mana_spent


_SPIRIT_IDX = [SYMBOLS.index(s) for s in SPIRITS]


def spirits_available(st: State) -> list[int]:
    """Spirit symbols in the field plus those from abilities: animal, forest, sky, wild."""
    t = st.turn
    tot = field_totals(st, t.player)
    return [tot[k] + t.spirit_bonus[i] for i, k in enumerate(_SPIRIT_IDX)]


def can_pay(have: list[int], need: list[int]) -> bool:
    """Can symbols ``have`` (animal, forest, sky, wild) pay ``need`` (animal, forest, sky,
    any)?  Each symbol pays once; a wild pays for any; "any" takes any symbol (file 000)."""
    wild = have[3]
    spare = 0
    for k in range(3):
        if need[k] > have[k]:
            wild -= need[k] - have[k]
        else:
            spare += have[k] - need[k]
    if wild < 0:
        return False
    return spare + wild >= need[3]


def spare_spirits(st: State) -> int:
    """Spirit symbols not needed to pay for what was bought this turn: the most "any"
    symbols that could still be paid on top of it (the largest n with
    ``can_pay(have, need + n any)``)."""
    have = spirits_available(st)
    need = st.turn.spirit_spent
    wild, spare = have[3], 0
    for k in range(3):
        if need[k] > have[k]:
            wild -= need[k] - have[k]
        else:
            spare += have[k] - need[k]
    return max(0, spare + wild - need[3]) if wild >= 0 else 0


# -- the start of the Harvest ------------------------------------------------------
@step("harvest_start")
def _step_harvest_start(st: State, s: Step) -> None:
    """Gain the VP tokens and curse tokens shown on the field's cards (file 000, 003)."""
    for c in list(st.players[s.player].field):
        score_card(st, s.player, c)


def score_card(st: State, p: int, card: int) -> None:
    """A card in the field during the Harvest gives its VP and curse tokens, once."""
    if card in st.turn.scored:
        return
    st.turn.scored.append(card)
    sc = stats(st, card)
    gain_vp(st, p, sc.get("vp"), why=card_name(st, card))
    gain_curse(st, p, sc.get("curse"), why=card_name(st, card))


# -- advancement buys --------------------------------------------------------------
def discount_cards(st: State) -> list[tuple[int, int]]:
    """(card, discount) for field cards whose ability makes advancements sleeved on them
    cheaper (Earthchant Chorus, Council of Owls); usable any number of times (file 000)."""
    out = []
    memo, layers = st.cat._stats, st.cards
    for c in st.players[st.turn.player].field:
        if "buy_discount" not in (memo.get(layers[c]) or st.cat.stats(layers[c])).by_trigger:
            continue      # most cards have no such ability: skip them cheaply
        for _, _, ab in card_abilities(st, c, "buy_discount"):
            out.append((c, int(ab.param("amount", 0))))
    return out


def placement_exists(st: State, purchases: list[Purchase]) -> bool:
    """Can every bought advancement be sleeved on the field at once (file 000, 'you are not
    allowed to buy an advancement if you do not have a legal place to sleeve it')?"""
    field = st.players[st.turn.player].field
    if not purchases:
        return True
    if len(purchases) == 1 and purchases[0].target is None:
        # The common case, one advancement: any card it fits on will do.
        copy = purchases[0].copy
        return any(st.cat.fits(st.cards[c], copy) for c in field)
    layers = {c: st.cards[c] for c in field}
    fixed = [pu for pu in purchases if pu.target is not None]
    free = [pu for pu in purchases if pu.target is None]

    def place(items: list[Purchase], layers: dict[int, tuple[int, ...]]) -> bool:
        if not items:
            return True
        pu, rest = items[0], items[1:]
        targets = [pu.target] if pu.target is not None else field
        for c in targets:
            if c in layers and st.cat.fits(layers[c], pu.copy):
                nl = dict(layers)
                nl[c] = sleeve_layers(st, layers[c], pu.copy)
                if place(rest, nl):
                    return True
        return False

    return place(fixed + free, layers)


def sleeve_layers(st: State, layers: tuple[int, ...], copy: int) -> tuple[int, ...]:
    """The card after sleeving ``copy``: on top, or, for an eclipse advancement whose slot
    is taken, underneath (file 003: an eclipse may be sleeved under another advancement)."""
    new = st.cat.copies[copy]
    if new.type.eclipse:
        for i in layers:
            if st.cat.copies[i].slots & new.slots:
                return (copy,) + layers
    return layers + (copy,)


def market_copy(st: State, market: str) -> int | None:
    """The advancement copy a market name points at (``2.3``, ``soil.top``)."""
    if market.startswith("soil."):
        slot = market[5:]
        if slot not in SLOTS or st.soil_left.get(slot, 0) <= 0:
            return None
        return st.cat.soil_copies[slot]
    try:
        level, pos = (int(x) for x in market.split("."))
        return st.commons[level][pos - 1]
    except (ValueError, KeyError, IndexError):
        return None


def _markets(st: State) -> list[tuple[str, int]]:
    out = []
    for level in (1, 2, 3):
        for i, c in enumerate(st.commons[level]):
            if c is not None:
                out.append((f"{level}.{i + 1}", c))
    for slot, copy in st.cat.soil_copies.items():
        if st.soil_left.get(slot, 0) > 0:
            out.append((f"soil.{slot}", copy))
    return out


def buy_options(st: State, *, free: bool = False, max_cost: int | None = None,
                min_cost: int = 0) -> list[tuple[str, int, int | None, int]]:
    """(market, copy, declared card, price) of every advancement buy possible now."""
    if not free and max_cost is None and not min_cost:
        memo = st.memo.get("buy_options")
        if memo is None:
            memo = st.memo["buy_options"] = _buy_options(st, free=False, max_cost=None, min_cost=0)
        return memo
    return _buy_options(st, free=free, max_cost=max_cost, min_cost=min_cost)


def _buy_options(st: State, *, free: bool, max_cost: int | None,
                 min_cost: int) -> list[tuple[str, int, int | None, int]]:
    t = st.turn
    if not free and t.adv_buys >= MAX_ADV_BUYS:
        return []
    mana = mana_available(st)
    discounts = discount_cards(st)
    fits, cards, copies = st.cat.fits, st.cards, st.cat.copies
    if t.purchases:
        def placeable(copy: int, card: int | None = None) -> bool:
            return placement_exists(st, t.purchases + [Purchase(copy, card)])
    else:
        # Nothing bought yet: the advancement needs one card it fits on (or, declared
        # onto a card, that card).  Many field cards look alike (blank, Cursed Land).
        distinct = {cards[c] for c in st.players[t.player].field}

        def placeable(copy: int, card: int | None = None) -> bool:
            if card is not None:
                return True      # the declared card was checked by the caller
            return any(fits(layers, copy) for layers in distinct)
    out = []
    for market, copy in _markets(st):
        cost = copies[copy].type.cost
        if free and (cost < min_cost or (max_cost is not None and cost > max_cost)):
            continue
        price = 0 if free else cost
        if price <= mana and placeable(copy):
            out.append((market, copy, None, price))
        if free:
            continue
        for card, amount in discounts:
            dprice = max(0, cost - amount)
            if dprice < price and dprice <= mana and fits(cards[card], copy) and placeable(copy, card):
                out.append((market, copy, card, dprice))
    return out


def buy_advancement(st: State, p: int, market: str, copy: int, target: int | None, price: int,
                    *, counts: bool = True) -> None:
    t = st.turn
    if market.startswith("soil."):
        st.soil_left[market[5:]] -= 1
    else:
        level, pos = (int(x) for x in market.split("."))
        st.commons[level][pos - 1] = None
    t.mana_spent += price
    if counts:
        t.adv_buys += 1
    where = f" to sleeve on {card_name(st, target)}" if target is not None else ""
    log(st, "buy", p, f"Player {p + 1} buys {st.cat.label(copy)} for {price} mana{where}.",
        copy=st.cat.label(copy))
    add_purchase(st, p, copy, target)


def add_purchase(st: State, p: int, copy: int, target: int | None = None) -> None:
    """An advancement is bought (or gained free): it waits to be sleeved in the Discard
    phase, and its When Bought abilities resolve now (file 000)."""
    st.turn.purchases.append(Purchase(copy, target))
    for k, ab in enumerate(st.cat.copies[copy].type.abilities):
        if ab.trigger == "when_bought":
            schedule(st, Step("ability", p, {"copy": copy, "k": k, "bought": True}))


# -- vale buys ---------------------------------------------------------------------
def vale_options(st: State) -> list[tuple[str, int]]:
    t = st.turn
    if t.vale_buys >= t.vale_limit:
        return []
    have = spirits_available(st)
    spent, vale_list, vale_types = t.spirit_spent, st.cat.vale_list, st.vale_types
    out = []
    for level in (1, 2):
        for i, v in enumerate(st.vale_rows[level]):
            if v is not None and can_pay(have, [a + b for a, b in zip(spent, vale_list[vale_types[v]].cost)]):
                out.append((f"{level}.{i + 1}", v))
    return out


def gain_vale(st: State, p: int, v: int, *, when_bought: bool = True) -> None:
    """A vale joins a player's vales; its ability is not usable this turn (file 000)."""
    st.players[p].vales.append(v)
    st.turn.new_vales.append(v)
    vt = st.cat.vale_list[st.vale_types[v]]
    if when_bought:
        for k, ab in enumerate(vt.abilities):
            if ab.trigger == "when_bought":
                schedule(st, Step("ability", p, {"vale": v, "k": k, "bought": True}))


def buy_vale(st: State, p: int, market: str, v: int) -> None:
    level, pos = (int(x) for x in market.split("."))
    st.vale_rows[level][pos - 1] = None
    vt = st.cat.vale_list[st.vale_types[v]]
    for k in range(4):
        st.turn.spirit_spent[k] += vt.cost[k]
    st.turn.vale_buys += 1
    log(st, "vale", p, f"Player {p + 1} buys the vale {vt.name}.", vale=vt.name)
    gain_vale(st, p, v)


# -- Harvest abilities -------------------------------------------------------------
def harvest_abilities(st: State, p: int) -> list[tuple[str, dict, bool]]:
    """(ref, step data, optional) of Harvest abilities usable now, each once a turn."""
    pl = st.players[p]
    out = []
    memo, layers = st.cat._stats, st.cards
    for c in pl.field:
        if "harvest" not in (memo.get(layers[c]) or st.cat.stats(layers[c])).by_trigger:
            continue
        for layer, k, ab in card_abilities(st, c, "harvest"):
            key = f"c{c}.{layer}.{k}"
            if key in st.turn.used:
                continue
            out.append((ability_ref(c, layer, k), {"card": c, "layer": layer, "k": k, "key": key},
                        ab.optional))
    for pos, v in enumerate(pl.vales):
        if v in st.turn.new_vales:
            continue
        vt = st.cat.vale_list[st.vale_types[v]]
        for k, ab in enumerate(vt.abilities):
            if ab.trigger != "harvest":
                continue
            key = f"v{v}.{k}"
            if key in st.turn.used:
                continue
            ref = f"vale.{pos + 1}" + (f".{k + 1}" if k else "")
            out.append((ref, {"vale": v, "k": k, "key": key}, ab.optional))
    return out


def _usable(st: State, data: dict) -> bool:
    return usable(st, st.turn.player, ability_of(st, data), data)


# -- legal actions and applying them -----------------------------------------------
def harvest_legal(st: State) -> list[Action]:
    p = st.turn.player
    pl = st.players[p]
    out: list[Action] = []
    for ref, data, _ in harvest_abilities(st, p):
        if _usable(st, data):
            out.append(Action("use", (ref,)))
    if pl.mana_token_active:
        out.append(Action("token"))
    for market, _v in vale_options(st):
        out.append(Action("vale", (market,)))
    seen = set()
    for market, _copy, target, _price in buy_options(st):
        if (market, target) not in seen:
            seen.add((market, target))
            out.append(Action("buy", (market,) if target is None else (market, "on", f"#{target}")))
    if st.ruleset.spirit_trade and spare_spirits(st) >= SPIRIT_TRADE:
        out.append(Action("trade"))
    out.extend(_leaders.upgrade_actions(st))       # leaders (file 003)
    out.append(Action("finish"))
    return out


def apply_harvest(st: State, action: Action, known: dict | None = None) -> None:
    """Apply a Harvest action; ``known`` is the memo of the state before it (its buy
    options, if they were worked out to list the legal actions)."""
    p = st.turn.player
    pl = st.players[p]
    t = st.turn
    verb = action.verb
    if verb == "token":
        pl.mana_token_active = False
        t.mana_bonus += 1
        log(st, "token", p, f"Player {p + 1} spends the mana token for 1 mana.")
    elif verb == "use":
        for ref, data, _ in harvest_abilities(st, p):
            if ref == action.args[0]:
                schedule(st, Step("ability", p, data))
                break
    elif verb == "vale":
        market = action.args[0]
        v = dict(vale_options(st))[market]
        buy_vale(st, p, market, v)
    elif verb == "buy":
        market = action.args[0]
        target = int(action.args[2][1:]) if len(action.args) == 3 else None
        options = known.get("buy_options") if known else None
        for m, copy, tgt, price in options if options is not None else buy_options(st):
            if m == market and tgt == target:
                buy_advancement(st, p, m, copy, tgt, price)
                break
    elif verb == "trade":
        t.spirit_spent[3] += SPIRIT_TRADE
        gain_vp(st, p, 1, from_reserve=True, why="3 spirit symbols traded")
    elif verb == "upgrade":
        _leaders.apply_upgrade(st, p, int(action.args[0][1:]))
    elif verb == "finish":
        finish_harvest(st, p)


HARVEST["legal"] = harvest_legal
HARVEST["apply"] = apply_harvest


def finish_harvest(st: State, p: int) -> None:
    """End the Harvest: Harvest abilities that must resolve and were not used resolve now
    (file 000: 'you must resolve Harvest abilities ... unless it states otherwise');
    unspent mana is lost."""
    work = [Step("ability", p, data) for _, data, optional in harvest_abilities(st, p) if not optional]
    log(st, "finish", p, f"Player {p + 1} finishes the Harvest.")
    work.append(Step("harvest_end", p))
    schedule(st, *work)


@step("harvest_end")
def _step_harvest_end(st: State, s: Step) -> None:
    st.turn.mana_spent = st.turn.mana_bonus = 0
    schedule(st, Step("discard_start", s.player))

"""Leaders (file 003, Leader Cards): setup, upgrading, and every leader's abilities.

A leader is sleeved into one of its player's blank cards: the card's layers are the
parts of the leader's current side (see :class:`~mysticvale.engine.card_types.LeaderType`)
followed by any advancement Kojen and Khan sleeved onto itself.  No advancement may be
sleeved on a leader otherwise (``sleeve.can_sleeve`` refuses a card with a leader part).

Setup (``new_game(..., leaders=True)``): two leaders are dealt to each player at random;
each player, in turn order from the starting player, keeps one (a ``choose_leader``
decision that only that player sees), which is sleeved into a blank card; then every
deck is shuffled and the starting fields are made (file 003: the Leaders step comes
after the vales are set up and before the fields).

Upgrading is a Harvest action (``upgrade #7``) while the leader is in the field; it costs
the upgrade cost in mana and one of the two advancement buys.  The card turns over in the
Discard phase, after Discard abilities: so during the Harvest it is bought the starting
side's ability and symbols still work and the upgraded side's do not (file 003).
"""

from __future__ import annotations

from .actions import Action
from .card_types import SLOTS, Ability
from .registry import decision, effect, step
from .state import State, Step
from .zones import ask, card_name, discard_card, gain_curse, log, mark_seen, schedule, stats, take_top

#: Leaders dealt to each player (file 003, Leader Setup).
DEALT = 2


# -- reading a leader card ----------------------------------------------------------
def part_copy(st: State, part: str) -> int:
    t = st.cat.advancements[part]
    return st.cat.copy_index[f"{part}@{'+'.join(s for s in SLOTS if s in t.copies[0])}"]


def leader_on(st: State, card: int) -> tuple[str, str] | None:
    """(leader name, ``"start"`` or ``"upgraded"``) of a leader card, else None."""
    for i in st.cards[card]:
        t = st.cat.copies[i].type
        if t.kind == "leader":
            return st.cat.leader_of[t.name]
    return None


def set_side(st: State, card: int, side: str) -> None:
    """Turn a leader card to ``side``; advancements sleeved on it stay, on top of the new
    side's parts (file 003, Kojen and Khan: 'you keep the advancement you put at the
    bottom of the card')."""
    name, _ = leader_on(st, card)  # type: ignore[misc]
    ld = st.cat.leaders[name]
    parts = ld.start if side == "start" else ld.upgraded
    others = tuple(i for i in st.cards[card] if st.cat.copies[i].type.kind != "leader")
    st.cards[card] = tuple(part_copy(st, x) for x in parts) + others


# -- setup ---------------------------------------------------------------------------
def begin_leader_setup(st: State) -> None:
    """Deal two leaders to each player and schedule their choices (before the first turn)."""
    names = sorted(st.cat.leaders)
    if not names:
        raise ValueError("leaders come with the Twilight Garden set: add 'twilight_garden' to sets "
                         "to play with leaders")
    n = len(st.players)
    if len(names) < DEALT * n:
        raise ValueError(f"{n} players need {DEALT * n} leaders; the catalogue has {len(names)}")
    for p in range(n):
        if not any(st.cards[c] == () for c in st.players[p].deck):
            raise ValueError(f"player {p + 1} has no blank card to sleeve a leader into (file 003)")
    st.rng.shuffle("leaders", names)
    order = [(st.first_player + i) % n for i in range(n)]
    for k, q in enumerate(order):
        st.players[q].dealt_leaders = names[DEALT * k: DEALT * k + DEALT]
    work = [Step("leader_choose", q, {"leaders": names[DEALT * k: DEALT * k + DEALT]})
            for k, q in enumerate(order)]
    log(st, "setup", None, f"Each player is dealt {DEALT} leaders and keeps one.")
    schedule(st, *work, Step("leaders_ready", st.first_player))


@step("leader_choose")
def _step_leader_choose(st: State, s: Step) -> None:
    ask(st, "choose_leader", s.player, leaders=list(s.data["leaders"]))


def _slug(st: State, name: str) -> str:
    return st.cat.leaders[name].slug


def _choose_legal(st: State, pd) -> list[Action]:
    return [Action("choose", (_slug(st, name),)) for name in pd.data["leaders"]]


@decision("choose_leader", _choose_legal, lambda st, pd: f"player {pd.player + 1} is choosing a leader")
def _choose_apply(st: State, pd, action: Action) -> None:
    p = pd.player
    name = next(x for x in pd.data["leaders"] if _slug(st, x) == action.args[0])
    blanks = [c for c in st.players[p].deck if st.cards[c] == ()]
    if not blanks:
        raise ValueError(f"player {p + 1} has no blank card to sleeve a leader into")
    card = min(blanks)
    st.cards[card] = tuple(part_copy(st, x) for x in st.cat.leaders[name].start)
    log(st, "leader", p, f"Player {p + 1} keeps the leader {name} and sleeves it into {card_name(st, card)}.",
        private_to=p, public_text=f"Player {p + 1} keeps a leader and shuffles it into the deck.")


@step("leaders_ready")
def _step_leaders_ready(st: State, s: Step) -> None:
    """Every leader is chosen: shuffle the decks, make the starting fields, begin."""
    from .flow import start_turn
    from .setup import deal_starting_fields

    for p, pl in enumerate(st.players):
        st.rng.shuffle(f"deck{p}", pl.deck)
        pl.known_top = []
    deal_starting_fields(st)
    start_turn(st, st.first_player)


# -- upgrading -----------------------------------------------------------------------
def upgrade_actions(st: State) -> list[Action]:
    """``upgrade #c`` for each starting-side leader in the field the player can afford
    while an advancement buy is left (file 003)."""
    from .harvest import MAX_ADV_BUYS, mana_available

    t = st.turn
    if t.adv_buys >= MAX_ADV_BUYS:
        return []
    out = []
    mana = mana_available(st)
    for c in st.players[t.player].field:
        info = leader_on(st, c)
        if info and info[1] == "start" and c not in t.upgrades \
                and st.cat.leaders[info[0]].upgrade_cost <= mana:
            out.append(Action("upgrade", (f"#{c}",)))
    return out


def apply_upgrade(st: State, p: int, card: int) -> None:
    name, _ = leader_on(st, card)  # type: ignore[misc]
    cost = st.cat.leaders[name].upgrade_cost
    t = st.turn
    t.mana_spent += cost
    t.adv_buys += 1
    t.upgrades.append(card)
    log(st, "upgrade", p, f"Player {p + 1} pays {cost} mana to upgrade {name}; it turns over in the Discard phase.")


@step("leader_upgrades")
def _step_leader_upgrades(st: State, s: Step) -> None:
    """Leaders upgraded in this Harvest turn to their upgraded side (after Discard
    abilities, so a side works for the whole turn it was showing)."""
    for c in st.turn.upgrades:
        info = leader_on(st, c)
        if info and info[1] == "start":
            set_side(st, c, "upgraded")
            log(st, "upgrade", s.player, f"Player {s.player + 1}'s leader {info[0]} turns to its upgraded side.")
    st.turn.upgrades = []


# ==================================================================================
# Althena - Queen of the Fey
# ==================================================================================
def _token_points(st: State, p: int) -> int:
    pl = st.players[p]
    return pl.vp_tokens - pl.curse_tokens


def _vale_points(st: State, p: int) -> int:
    return sum(st.cat.vale_list[st.vale_types[v]].end_vp for v in st.players[p].vales)


@effect("keep_in_field_when_pointless", ("discard",), {"either": bool})
def _althena(st: State, p: int, ab: Ability, data: dict) -> None:
    """If your token points (VP minus curse tokens) are 0 or less and your vales' shield
    VP are 0 or less (upgraded: either of the two), this card stays in your field for your
    next turn, with one other field card showing a Cursed Land if you have one (file 003)."""
    a = _token_points(st, p) <= 0
    b = _vale_points(st, p) <= 0
    if not ((a and b) or (ab.param("either", False) and (a or b))):
        return
    card = data["card"]
    t = st.turn
    if card not in t.kept:
        t.kept.append(card)
    log(st, "ability", p, f"Player {p + 1}'s Althena stays in the field for the next turn.")
    choices = distinct_choices(st, [c for c in st.players[p].field
                                    if c != card and c not in t.kept and stats(st, c).has_cursed_land])
    if len(choices) == 1:
        _keep(st, p, choices[0])
    elif choices:
        ask(st, "althena_keep", p, source=card)


def distinct_choices(st: State, cards: list[int]) -> list[int]:
    from .effects.base import distinct_cards
    return distinct_cards(st, cards)


def _keep(st: State, p: int, c: int) -> None:
    st.turn.kept.append(c)
    log(st, "ability", p, f"Player {p + 1} also keeps {card_name(st, c)} in the field (Althena).")


def _althena_legal(st: State, pd) -> list[Action]:
    t = st.turn
    cands = [c for c in st.players[pd.player].field
             if c != pd.data["source"] and c not in t.kept and stats(st, c).has_cursed_land]
    return [Action("keep", (f"#{c}",)) for c in distinct_choices(st, cands)]


@decision("althena_keep", _althena_legal, lambda st, pd: "choosing a Cursed Land card to keep (Althena)")
def _althena_apply(st: State, pd, action: Action) -> None:
    _keep(st, pd.player, int(action.args[0][1:]))


# ==================================================================================
# Hectoro - The Hunter
# ==================================================================================
@effect("curse_leading_opponents", ("harvest",), {"curse": int})
def _hectoro(st: State, p: int, ab: Ability, data: dict) -> None:
    """The opponent(s) with the most vales gain 2 curse tokens; the opponent(s) with the
    most net VP tokens (VP minus curse tokens) gain 2 curse tokens; one player can get
    both (file 003).  Both are decided before either is paid, and 'the most' needs at
    least one vale / one net VP (our reading, docs/rules-decisions.md)."""
    n = int(ab.param("curse", 2))
    opp = [q for q in range(len(st.players)) if q != p]
    most_vales = max(len(st.players[q].vales) for q in opp)
    most_net = max(_token_points(st, q) for q in opp)
    by_vales = [q for q in opp if most_vales > 0 and len(st.players[q].vales) == most_vales]
    by_net = [q for q in opp if most_net > 0 and _token_points(st, q) == most_net]
    for q in by_vales:
        gain_curse(st, q, n, why="Hectoro: most vales")
    for q in by_net:
        gain_curse(st, q, n, why="Hectoro: most net VP tokens")
    if not by_vales and not by_net:
        log(st, "ability", p, f"Player {p + 1}'s Hectoro finds no opponent to curse.")


@effect("place_top_cards_end_planting", ("when_played",), {"count": int})
def _hectoro_up(st: State, p: int, ab: Ability, data: dict) -> None:
    """Place the top 7 cards of your deck into your field (placed, not played), then
    reveal an on-deck card; you cannot push or spoil any more.  In Planting go on to the
    Harvest; in Prep your turn ends and the next one begins with its Harvest (file 003)."""
    pl = st.players[p]
    placed = []
    for _ in range(int(ab.param("count", 7))):
        c = take_top(st, p)
        if c is None:
            break
        pl.field.append(c)
        mark_seen(st, c)
        placed.append(c)
    log(st, "ability", p, f"Player {p + 1}'s Hectoro places {len(placed)} card(s) into the field: "
        + ", ".join(card_name(st, c) for c in placed) + ".")
    if pl.on_deck is None:
        from .zones import reveal
        reveal(st, p)
    if st.turn.phase == "prep":
        pl.harvest_next = True
    elif st.turn.player == p and st.turn.phase == "planting":
        st.turn.phase = "harvest"
        schedule(st, Step("harvest_start", p))


@effect("flip_to_starting_side", ("discard",), {})
def _flip_back(st: State, p: int, ab: Ability, data: dict) -> None:
    """Discard phase, not optional: turn this leader back to its starting side (file 003,
    Hectoro)."""
    set_side(st, data["card"], "start")
    log(st, "ability", p, f"Player {p + 1}'s Hectoro turns back to his starting side.")


# ==================================================================================
# Kojen and Khan
# ==================================================================================
def free_ability_slots(st: State, card: int) -> set[str]:
    """Slots of this leader card's uncovered, coverable ability parts."""
    s = stats(st, card)
    out: set[str] = set()
    for pos in s.active_layers:
        copy = st.cat.copies[st.cards[card][pos]]
        if copy.type.kind == "leader" and copy.type.eclipse:
            out |= set(copy.slots)
    return out


def _kojen_options(st: State, card: int, slot: str) -> list[tuple[str, int]]:
    from .harvest import _markets
    free = free_ability_slots(st, card)
    if slot not in free:
        return []
    return [(m, c) for m, c in _markets(st)
            if slot in st.cat.copies[c].slots and st.cat.copies[c].slots <= free]


@effect("sleeve_free_advancement_here", ("harvest",), {"slot": str})
def _kojen(st: State, p: int, ab: Ability, data: dict) -> None:
    """Choose any advancement of the commons that fills this ability's slot (regardless
    of cost) and sleeve it onto this card, covering the ability; When Bought effects
    trigger; it is free and not counted as a buy (file 003, Kojen and Khan)."""
    card = data["card"]
    if _kojen_options(st, card, ab.param("slot", "bottom")):
        ask(st, "kojen_and_khan", p, card=card, slot=ab.param("slot", "bottom"))


def _kojen_usable(st: State, p: int, ab: Ability, data: dict) -> bool:
    return bool(_kojen_options(st, data["card"], ab.param("slot", "bottom")))


def _kojen_legal(st: State, pd) -> list[Action]:
    seen: list[Action] = []
    for m, _c in _kojen_options(st, pd.data["card"], pd.data["slot"]):
        a = Action("buy", (m,))
        if a not in seen:
            seen.append(a)
    return seen + [Action("skip")]


@decision("kojen_and_khan", _kojen_legal,
          lambda st, pd: f"choosing a free {pd.data['slot']} advancement for Kojen and Khan")
def _kojen_apply(st: State, pd, action: Action) -> None:
    from .harvest import buy_advancement

    if action.verb == "skip":
        return
    p, card = pd.player, pd.data["card"]
    market = action.args[0]
    copy = dict(_kojen_options(st, card, pd.data["slot"]))[market]
    buy_advancement(st, p, market, copy, None, 0, counts=False)
    st.turn.purchases.pop()           # sleeved now, onto the leader, not in the Discard phase
    st.cards[card] = st.cards[card] + (copy,)
    st.turn.new_layers.append([card, len(st.cards[card]) - 1])
    log(st, "sleeve", p, f"Player {p + 1} sleeves {st.cat.label(copy)} onto Kojen and Khan.")


# ==================================================================================
# Le Que - Corrupted Soul
# ==================================================================================
@effect("win_with_field_cards", ("harvest",), {"cards": int})
def _le_que_win(st: State, p: int, ab: Ability, data: dict) -> None:
    """With 20 or more cards in your field, you win the game at once, whatever the
    points (file 003)."""
    if len(st.players[p].field) >= int(ab.param("cards", 20)):
        win(st, p)


def win(st: State, p: int) -> None:
    from .flow import finish_game
    st.winner_override = [p]
    log(st, "win", p, f"Player {p + 1} has {len(st.players[p].field)} cards in the field and wins the game (Le Que).")
    finish_game(st)


@effect("take_card_from_opponent_field", ("harvest",), {"cards": int})
def _le_que_take(st: State, p: int, ab: Ability, data: dict) -> None:
    """Choose 4 cards in one opponent's field (all, if fewer); that opponent chooses one
    of them, which goes on top of your discard pile and is yours from now on (file 003)."""
    ask(st, "le_que_pick", p, chosen=[], opponent=-1, count=int(ab.param("cards", 4)))




def _le_que_legal(st: State, pd) -> list[Action]:
    q = pd.data["opponent"]
    seats = [q] if q >= 0 else [x for x in range(len(st.players)) if x != pd.player]
    out = []
    for s in seats:
        left = [c for c in st.players[s].field if c not in pd.data["chosen"]]
        out += [Action("take", (f"#{c}",)) for c in distinct_choices(st, left)]
    return out


@decision("le_que_pick", _le_que_legal,
          lambda st, pd: "choosing cards in an opponent's field (Le Que)"
                         + (": " + ", ".join(f"#{c}" for c in pd.data["chosen"]) if pd.data["chosen"] else ""))
def _le_que_pick_apply(st: State, pd, action: Action) -> None:
    p = pd.player
    c = int(action.args[0][1:])
    q = next(s for s in range(len(st.players)) if c in st.players[s].field)
    chosen = list(pd.data["chosen"]) + [c]
    field = st.players[q].field
    want = min(pd.data["count"], len(field))
    if len(field) <= pd.data["count"]:
        chosen = list(field)
    if len(chosen) < want:
        ask(st, "le_que_pick", p, chosen=chosen, opponent=q, count=pd.data["count"])
        return
    log(st, "ability", p, f"Player {p + 1} chooses " + ", ".join(card_name(st, x) for x in chosen)
        + f" in player {q + 1}'s field (Le Que).")
    if len(distinct_choices(st, chosen)) == 1:
        _le_que_give(st, q, p, chosen[0])
    else:
        ask(st, "le_que_give", q, chosen=chosen, to=p)


def _le_que_give(st: State, q: int, to: int, c: int) -> None:
    st.players[q].field.remove(c)
    discard_card(st, to, c)
    log(st, "ability", q, f"Player {q + 1} gives {card_name(st, c)} to player {to + 1}, on top of the "
        "discard pile (Le Que).")


@decision("le_que_give", lambda st, pd: [Action("give", (f"#{c}",)) for c in distinct_choices(st, pd.data["chosen"])],
          lambda st, pd: f"player {pd.player + 1} chooses which of "
                         + ", ".join(f"#{c}" for c in pd.data["chosen"])
                         + f" to give to player {pd.data['to'] + 1} (Le Que)")
def _le_que_give_apply(st: State, pd, action: Action) -> None:
    _le_que_give(st, pd.player, pd.data["to"], int(action.args[0][1:]))


@effect("pay_to_flip_back_and_win", ("harvest",), {"cost": int, "cards": int})
def _le_que_back(st: State, p: int, ab: Ability, data: dict) -> None:
    """Pay 5 mana to turn this leader back to its starting side; with 20 or more cards
    in your field then, you win at once (file 003).  The starting side's Harvest
    abilities are not usable in this Harvest (our reading)."""
    card = data["card"]
    st.turn.mana_spent += int(ab.param("cost", 5))
    before = stats(st, card)
    set_side(st, card, "start")
    # The mana and spirit symbols the card already gave this Harvest stay given, and the
    # new side's do not count until the next Harvest (as for an upgrade).
    after = stats(st, card)
    st.turn.mana_bonus += before.get("mana") - after.get("mana")
    for i, sp in enumerate(("animal", "forest", "sky", "wild")):
        st.turn.spirit_bonus[i] += before.get(sp) - after.get(sp)
    n_parts = len(st.cat.leaders[leader_on(st, card)[0]].start)  # type: ignore[index]
    for pos in range(n_parts):
        st.turn.new_layers.append([card, pos])
    log(st, "ability", p, f"Player {p + 1} pays {ab.param('cost', 5)} mana to turn Le Que back to the starting side.")
    if len(st.players[p].field) >= int(ab.param("cards", 20)):
        win(st, p)


def _register_usable() -> None:
    from .effects.base import _USABLE
    from .harvest import mana_available

    _USABLE["sleeve_free_advancement_here"] = _kojen_usable
    _USABLE["win_with_field_cards"] = lambda st, p, ab, d: len(st.players[p].field) >= int(ab.param("cards", 20))
    _USABLE["take_card_from_opponent_field"] = lambda st, p, ab, d: any(
        st.players[q].field for q in range(len(st.players)) if q != p)
    _USABLE["pay_to_flip_back_and_win"] = lambda st, p, ab, d: mana_available(st) >= int(ab.param("cost", 5))


_register_usable()


# -- hidden information --------------------------------------------------------------
def unseen_leaders(st: State, p: int) -> list[int]:
    """Leader cards player ``p`` holds that have never been face up (in its deck, discard
    pile or set aside), in id order.  That they are leader cards is public (every player
    sleeves the leader kept into a blank card in front of the others); which leader each
    one is, only ``p`` knows until it is face up (file 003)."""
    parts = st.cat.leader_copies
    if not parts:
        return []
    pl = st.players[p]
    cards, seen = st.cards, st.seen_leaders
    out = [c for zone in (pl.deck, pl.discard, pl.aside) for c in zone
           if c not in seen and not parts.isdisjoint(cards[c])]
    out.sort()
    return out


def resample_hidden_leaders(st: State, viewer: int | None, rng, stream: str) -> None:
    """For a determinization: give every leader whose identity ``viewer`` (None: a
    spectator) cannot know (an opponent's leader never face up, the pairs still to be
    chosen at setup) a leader drawn at random from those the viewer cannot rule out.  Unseen leaders show their starting
    side with nothing sleeved on them (upgrading and Kojen and Khan need the field)."""
    if not st.cat.leaders:
        return
    from .zones import owned_cards

    hidden: list[int] = []
    for q in range(len(st.players)):
        if q != viewer:
            hidden += unseen_leaders(st, q)
    known: set[str] = set(st.players[viewer].dealt_leaders) if viewer is not None else set()
    for q in range(len(st.players)):
        for c in owned_cards(st, q):
            if c not in hidden:
                info = leader_on(st, c)
                if info is not None:
                    known.add(info[0])
    pool = [n for n in sorted(st.cat.leaders) if n not in known]
    rng.shuffle(stream, pool)
    for c in hidden:
        name = pool.pop()
        st.cards[c] = tuple(part_copy(st, x) for x in st.cat.leaders[name].start)
    # Pairs still to be chosen during setup, and what others were dealt.
    for q, pl in enumerate(st.players):
        if q != viewer:
            pl.dealt_leaders = []
    for s in st.steps:
        if s.kind == "leader_choose" and s.player != viewer:
            s.data["leaders"] = [pool.pop(), pool.pop()]
    for pd in st.pending:
        if pd.kind == "choose_leader" and pd.player != viewer:
            pd.data["leaders"] = [pool.pop(), pool.pop()]

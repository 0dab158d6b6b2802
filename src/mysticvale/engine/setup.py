"""Setting up a game (file 000, Setup; file 003, Quick Reference)."""

from __future__ import annotations

from .catalogue import Catalogue
from .card_types import SLOTS
from .rng import Rng
from .rulesets import RuleSet
from .state import Player, State, Turn
from .zones import log, reveal, stats

LEVEL1_DECK = {2: 12, 3: 15, 4: 18}   # level-1 advancements counted out per player count
VP_POOL = {2: 23, 3: 28, 4: 33}       # VP tokens in the pool per player count
COMMONS_PER_LEVEL = 3
VALES_PER_LEVEL = 4
FIELD_CURSED_LANDS = 2                # Cursed Lands in a starting field; a third is on deck


def new_state(cat: Catalogue, ruleset: RuleSet, players: int, seed: int, *,
              deal_fields: bool = True) -> State:
    """A game set up and ready for its first turn.  With ``deal_fields=False`` the starting
    fields are left for later (leaders are chosen and shuffled in first, file 003; see
    :func:`deal_starting_fields`)."""
    if players not in VP_POOL:
        raise ValueError(f"Mystic Vale is for 2 to 4 players, not {players}")
    rng = Rng(seed)
    cards: list[tuple[int, ...]] = []
    owner: list[int] = []
    pls: list[Player] = []
    # 1. Player decks: 9 Cursed Land, 3 Fertile Soil, 8 blank, shuffled.
    for p in range(players):
        deck = []
        for name, count in cat.starting:
            t = cat.advancements.get(name)
            layers: tuple[int, ...] = ()
            if t is not None:
                layers = (cat.copy_index[f"{name}@{'+'.join(s for s in SLOTS if s in t.copies[0])}"],)
            for _ in range(count):
                deck.append(len(cards))
                cards.append(layers)
                owner.append(p)
        rng.shuffle(f"deck{p}", deck)
        pls.append(Player(deck=deck))
    # 2. The commons: level 1 counted out by player count; all of levels 2 and 3.
    adv_decks = {}
    for level in (1, 2, 3):
        d = cat.supply_copies(level)
        rng.shuffle(f"adv{level}", d)
        if level == 1:
            d = d[len(d) - min(len(d), LEVEL1_DECK[players]):]
        adv_decks[level] = d
    commons = {lvl: [adv_decks[lvl].pop() if adv_decks[lvl] else None for _ in range(COMMONS_PER_LEVEL)]
               for lvl in (1, 2, 3)}
    soil = next(t for t in cat.advancements.values() if t.kind == "fertile_soil")
    soil_left = {s: sum(1 for c in soil.copies if s in c) for s in SLOTS}
    # 3. Vale cards: both decks shuffled, four face up from each.
    vale_types: list[int] = []
    vale_decks = {}
    for level in (1, 2):
        ids = []
        for ti in cat.supply_vales(level):
            ids.append(len(vale_types))
            vale_types.append(ti)
        rng.shuffle(f"vale{level}", ids)
        vale_decks[level] = ids
    vale_rows = {lvl: [vale_decks[lvl].pop() if vale_decks[lvl] else None for _ in range(VALES_PER_LEVEL)]
                 for lvl in (1, 2)}
    st = State(
        cat=cat, ruleset=ruleset, rng=rng, cards=cards, owner=owner, players=pls,
        adv_decks=adv_decks, commons=commons, soil_left=soil_left, vale_types=vale_types,
        vale_decks=vale_decks, vale_rows=vale_rows, vp_pool=VP_POOL[players],
    )
    # 6. Mana tokens dealt at random, spent side up; the star token's owner starts.
    first = rng.below("setup", players)
    st.first_player = first
    pls[first].star = True
    if deal_fields:
        deal_starting_fields(st)
    st.events.clear()
    st.current = first
    st.turn = Turn(first)
    log(st, "setup", None, f"A {players}-player game begins ({ruleset.name} rules, sets: "
        f"{', '.join(cat.sets)}). Player {first + 1} has the star token and starts.")
    return st


def deal_starting_fields(st: State) -> None:
    """5. Setup Fields (file 000; file 003's quick reference): turn over the on-deck card,
    place it in the field and turn over a new one, "until you have two Cursed Lands in your
    field and a third one on-deck".  A Cursed Land is a card showing an uncovered Cursed
    Land; other symbols do not count (a leader with growth does not make a third Cursed
    Land go into the field).  Starting cards have no abilities and cannot spoil; a leader
    met here is placed like any other card, its When Played ability does not act (the game
    has not begun).  A deck with fewer Cursed Lands (a custom catalogue) is dealt out
    until the deck is empty."""
    for p in range(len(st.players)):
        pl = st.players[p]
        reveal(st, p)
        in_field = 0
        while pl.on_deck is not None:
            card = pl.on_deck
            if in_field >= FIELD_CURSED_LANDS and stats(st, card).has_cursed_land:
                break           # two in the field and a third on deck
            pl.field.append(card)
            in_field += stats(st, card).has_cursed_land
            pl.on_deck = None
            reveal(st, p)

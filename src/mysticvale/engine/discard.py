"""The Discard phase: sleeve what was bought, Discard abilities, discard the field, replenish
the commons and vale rows, and the yucata end-of-game trigger.  (The interface option
``finish_turn`` ends the turn after the Prep phase: engine/flow.py, ``end_of_prep``.)"""

from __future__ import annotations

from .actions import Action
from .flow import begin_phase, queue_triggered, trigger_items
from .harvest import placement_exists, sleeve_layers
from .registry import decision, step
from .state import State, Step
from .zones import ask, card_name, discard_card, log, schedule


@step("discard_start")
def _step_discard_start(st: State, s: Step) -> None:
    begin_phase(st, "discard")
    p = s.player
    schedule(st, Step("sleeve_next", p), Step("discard_abilities", p),
             Step("leader_upgrades", p),          # engine/leaders.py (file 003)
             Step("discard_field", p), Step("replenish", p), Step("prep_start", p))


def sleeve_targets(st: State, p: int) -> list[int]:
    """Field cards the first unsleeved purchase may go on while the rest still fit."""
    t = st.turn
    pu = t.purchases[0]
    if pu.target is not None:
        return [pu.target]
    out = []
    for c in st.players[p].field:
        if not st.cat.fits(st.cards[c], pu.copy):
            continue
        saved = st.cards[c]
        st.cards[c] = sleeve_layers(st, saved, pu.copy)
        ok = placement_exists(st, t.purchases[1:])
        st.cards[c] = saved
        if ok:
            out.append(c)
    return out


def sleeve(st: State, p: int, card: int) -> None:
    t = st.turn
    pu = t.purchases.pop(0)
    before = st.cards[card]
    name = card_name(st, card)
    after = sleeve_layers(st, before, pu.copy)
    st.cards[card] = after
    # An eclipse slid under the others is layer 0 and the layers above it shift up by one.
    slid_under = len(after) > 1 and after[1:] == before
    pos = 0 if slid_under else len(after) - 1
    if slid_under:
        t.new_layers = [[c, l + 1] if c == card else [c, l] for c, l in t.new_layers]
    t.new_layers.append([card, pos])
    log(st, "sleeve", p, f"Player {p + 1} sleeves {st.cat.label(pu.copy)} on {name}.")


@step("sleeve_next")
def _step_sleeve_next(st: State, s: Step) -> None:
    """Sleeve each bought advancement on a field card (never the on-deck card)."""
    t = st.turn
    if not t.purchases:
        return
    targets = sleeve_targets(st, s.player)
    if len(targets) == 1:
        sleeve(st, s.player, targets[0])
        schedule(st, Step("sleeve_next", s.player))
    else:
        ask(st, "sleeve", s.player, copy=t.purchases[0].copy)


def _sleeve_legal(st: State, pd) -> list[Action]:
    return [Action("sleeve", (f"#{c}",)) for c in sleeve_targets(st, pd.player)]


@decision("sleeve", _sleeve_legal, lambda st, pd: "sleeving an advancement")
def _sleeve_apply(st: State, pd, action: Action) -> None:
    sleeve(st, pd.player, int(action.args[0][1:]))
    schedule(st, Step("sleeve_next", pd.player))


@step("discard_abilities")
def _step_discard_abilities(st: State, s: Step) -> None:
    queue_triggered(st, s.player, trigger_items(st, st.players[s.player].field, "discard"))


@step("discard_field")
def _step_discard_field(st: State, s: Step) -> None:
    """Put the field in the discard pile (not the on-deck card); cards an ability keeps stay
    as the first cards of the next field, in the order they were kept."""
    pl = st.players[s.player]
    kept = [c for c in st.turn.kept if c in pl.field]
    for c in pl.field:
        if c not in kept:
            discard_card(st, s.player, c)
    pl.field = kept
    st.turn.kept = []


def _refill(row: list[int | None], decks: dict[int, list[int]], level: int, top: int) -> list[int]:
    """Fill the empty places of ``row`` from the level-``level`` deck, falling back to the
    next level up to ``top``; returns the level each card came from."""
    drawn = []
    for i, c in enumerate(row):
        if c is None:
            for src in range(level, top + 1):
                if decks[src]:
                    row[i] = decks[src].pop()
                    drawn.append(src)
                    break
    return drawn


@step("replenish")
def _step_replenish(st: State, s: Step) -> None:
    """Refill the commons: level 1 falls back to level 2, level 2 to level 3; level-1 vales
    fall back to level 2 (file 000)."""
    for level in (1, 2, 3):
        _refill(st.commons[level], st.adv_decks, level, 3)
    for level in (1, 2):
        drawn = _refill(st.vale_rows[level], st.vale_decks, level, 2)
        if 2 in drawn and not st.vale_decks[2] and st.ruleset.end_on_last_level2_vale \
                and st.end_triggered is None:
            st.end_triggered = "last_level2_vale"
            log(st, "end_triggered", None, "The last level-2 vale enters the commons: "
                "the game ends after this round.")

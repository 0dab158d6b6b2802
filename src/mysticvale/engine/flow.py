"""The turn: Planting, spoiling, Prep, the end of a turn and of the game.

Rules work is a stack of :class:`Step` records run by :func:`run`; a step that needs a
player's choice opens a :class:`Pending` decision and the run stops until an action
answers it.  Harvest and Discard live in their own modules.
"""

from __future__ import annotations

from .actions import Action
from .card_types import Ability
from .registry import DECISIONS, EFFECTS, HARVEST, STEPS, decision, step
from .state import State, Step, Turn
from .zones import (
    ask, card_name, decay_symbols, discard_card, log, net_decay, reveal, schedule, stats,
)

SPOIL_AT = 4       # decay that spoils (file 000)
PREP_UNTIL = 3     # Prep reveals until this much decay shows (file 000)
PREP_STOP_OVER = 2  # German rules: Prep may stop with more than this many decay symbols (file 000)


def run(st: State) -> None:
    """Run scheduled rules work until a decision is needed or nothing is left."""
    while not st.pending and st.steps and not st.over:
        s = st.steps.pop()
        STEPS[s.kind](st, s)


# -- abilities as sources ----------------------------------------------------------
def ability_ref(card: int, layer: int, k: int) -> str:
    return f"#{card}.{layer + 1}" + (f".{k + 1}" if k else "")


def card_abilities(st: State, card: int, trigger: str, *, include_new: bool = False):
    """(layer, k, ability) of a card's active abilities with this trigger.

    Abilities of advancements sleeved this turn are not active this turn (file 000,
    Earthchant Chorus; file 000 yucata notes, Hatchery).
    """
    items = stats(st, card).by_trigger.get(trigger, ())
    new = st.turn.new_layers
    if not items or include_new or not new:
        return items
    return tuple(x for x in items if [card, x[0]] not in new)


def ability_at(st: State, card: int, layer: int, k: int) -> Ability:
    s = stats(st, card)
    seen = 0
    for lay, ab in s.abilities:
        if lay == layer:
            if seen == k:
                return ab
            seen += 1
    raise KeyError((card, layer, k))


def ability_of(st: State, d: dict) -> Ability:
    """The ability a step's data points at (a card's layer, a vale, or a bought copy)."""
    if "vale" in d:
        return st.cat.vale_list[st.vale_types[d["vale"]]].abilities[d.get("k", 0)]
    if "copy" in d:
        return st.cat.copies[d["copy"]].type.abilities[d.get("k", 0)]
    return ability_at(st, d["card"], d["layer"], d.get("k", 0))


@step("ability")
def _step_ability(st: State, s: Step) -> None:
    """Resolve one ability: ``data`` holds card/layer/k or vale, and the key to mark used."""
    d = s.data
    ab = ability_of(st, d)
    key = d.get("key")
    if key:
        st.turn.used.append(key)
    handler = EFFECTS[ab.effect].handler
    if handler is not None:
        handler(st, s.player, ab, d)


def trigger_items(st: State, cards: list[int], trigger: str) -> list[dict]:
    """Step data for the unused abilities with ``trigger`` on these cards.

    Each ability acts once per turn (file 000, Using Abilities): a card played again in
    the same turn (discarded, reshuffled and pushed again) does not trigger twice.
    """
    items = []
    for card in cards:
        for layer, k, _ab in card_abilities(st, card, trigger):
            key = f"c{card}.{layer}.{k}"
            if key not in st.turn.used:
                items.append({"card": card, "layer": layer, "k": k,
                              "ref": ability_ref(card, layer, k), "key": key})
    return items


def queue_triggered(st: State, p: int, items: list[dict]) -> None:
    """Schedule simultaneous triggered abilities; the active player orders them (file 000)."""
    if not items:
        return
    if len(items) == 1:
        schedule(st, Step("ability", p, items[0]))
    else:
        ask(st, "order", p, items=items)


def _order_legal(st: State, pd) -> list[Action]:
    return [Action("resolve", (it["ref"],)) for it in pd.data["items"]]


@decision("order", _order_legal, lambda st, pd: "choosing the order of abilities")
def _order_apply(st: State, pd, action: Action) -> None:
    items = pd.data["items"]
    chosen = next(it for it in items if it["ref"] == action.args[0])
    rest = [it for it in items if it is not chosen]
    # The rest are ordered again after this one resolves.
    schedule(st, Step("ability", pd.player, chosen), Step("queue", pd.player, {"items": rest}))


@step("queue")
def _step_queue(st: State, s: Step) -> None:
    queue_triggered(st, s.player, s.data["items"])


# -- the turn ----------------------------------------------------------------------
def begin_phase(st: State, phase: str) -> None:
    """A phase of the turn begins: the rules work scheduled from now on is that phase's.

    A spoil ends the Planting or Prep phase it interrupts (file 000: "When you Spoil, you
    immediately skip your Harvest Phase and jump straight to your Discard Phase"), so the
    spoil drops every step of that phase still waiting (see the "spoil" step); this marks
    where they begin on the step stack.
    """
    st.turn.phase = phase
    st.turn.phase_floor = len(st.steps)


def start_turn(st: State, p: int) -> None:
    st.current = p
    st.turn = Turn(p)
    # ``turn`` and ``action`` let checks see that every turn starts once, after an action.
    log(st, "turn", p, f"Round {st.round}: Player {p + 1}'s turn.", turn=st.turn_number,
        action=len(st.history))
    if st.players[p].harvest_next:
        # Hectoro's upgraded side was played in Prep: this turn begins with the Harvest
        # (file 003); nothing is played and nothing can spoil.
        st.players[p].harvest_next = False
        begin_phase(st, "harvest")
        schedule(st, Step("harvest_start", p))
        return
    begin_phase(st, "planting")
    # A reveal outside the Planting/Prep phases (Echoing Waterfalls) that would spoil
    # spoils at the start of the next Planting phase (file 003).
    schedule(st, Step("spoil_check", p))


def planting_legal(st: State) -> list[Action]:
    pl = st.players[st.current]
    if pl.on_deck is None:
        return [Action("pass")]   # all cards are in the field: you must pass (file 000)
    return [Action("push"), Action("pass")]


def apply_planting(st: State, action: Action) -> None:
    p = st.current
    if action.verb == "pass":
        log(st, "pass", p, f"Player {p + 1} passes.")
        begin_phase(st, "harvest")
        schedule(st, Step("harvest_start", p))
    else:
        log(st, "push", p, f"Player {p + 1} pushes {card_name(st, st.players[p].on_deck)}.")
        schedule(st, *play_on_deck(st, p), Step("spoil_check", p))


def play_on_deck(st: State, p: int) -> list[Step]:
    """Place the on-deck card into the field; return the steps that follow: resolve its
    When Played abilities, then reveal the next on-deck card (file 000, Planting step B).

    With the interface option ``finish_turn`` the reveal waits for the player's ``reveal``
    after a When Played ability the player used (see the "reveal_pause" step)."""
    pl = st.players[p]
    card = pl.on_deck
    assert card is not None
    pl.field.append(card)
    pl.on_deck = None
    work = [Step("when_played", p, {"card": card})]
    if st.finish_turn:
        work.append(Step("reveal_pause", p, {"mark": len(st.history)}))
    work.append(Step("reveal", p))
    return work


@step("when_played")
def _step_when_played(st: State, s: Step) -> None:
    queue_triggered(st, s.player, trigger_items(st, [s.data["card"]], "when_played"))


@step("reveal_pause")
def _step_reveal_pause(st: State, s: Step) -> None:
    """yucata's interface (file 000): "if there are usable abilities (usually 'When Played'
    abilities), you explicitly have to click on the deck to reveal the next card. This
    enables you to undo use of the ability."  A When Played ability was usable when its
    resolution asked the player something (a choice, or whether to use an optional
    ability): an action was answered since the card was played (``mark``: the number of
    actions then).  Abilities that resolve by themselves do not stop the reveal."""
    if len(st.history) > s.data["mark"]:
        ask(st, "reveal_next", s.player)


@decision("reveal_next", lambda st, pd: [Action("reveal")],
          lambda st, pd: "revealing the next on-deck card")
def _reveal_next_apply(st: State, pd, action: Action) -> None:
    """The player goes on: the "reveal" step that follows turns up the next on-deck card."""


@step("reveal")
def _step_reveal(st: State, s: Step) -> None:
    if st.players[s.player].on_deck is None:
        reveal(st, s.player)


# -- spoiling ----------------------------------------------------------------------
def spoil_guards(st: State, p: int) -> list[Action]:
    """Ways to avoid spoiling now (Peacekeeper Druid, Aether Tree)."""
    pl = st.players[p]
    out: list[Action] = []
    for c in pl.field:
        for layer, k, ab in card_abilities(st, c, "spoil_guard"):
            if ab.effect == "discard_on_deck_instead" and f"c{c}.{layer}.{k}" not in pl.guards_used \
                    and pl.on_deck is not None:
                out.append(Action("guard", (ability_ref(c, layer, k),)))
    for pos, v in enumerate(pl.vales):
        if v in st.turn.new_vales and st.turn.player == p:
            continue
        vt = st.cat.vale_list[st.vale_types[v]]
        for ab in vt.abilities:
            if ab.trigger == "spoil_guard" and ab.effect == "cancel_decay_on_card":
                targets = list(pl.field)
                if st.ruleset.aether_tree_on_deck and pl.on_deck is not None:
                    targets.append(pl.on_deck)
                for c in targets:
                    if c not in pl.aether_cards and stats(st, c).get("decay") > _aether_left(st, p, c):
                        out.append(Action("guard", (f"vale.{pos + 1}", f"#{c}")))
    return out


def _aether_left(st: State, p: int, c: int) -> int:
    return stats(st, c).aether_decay


@step("spoil_check")
def _step_spoil_check(st: State, s: Step) -> None:
    p = s.player
    if st.turn.phase not in ("planting", "prep") or st.players[p].harvest_next:
        return
    if net_decay(st, p) < SPOIL_AT:
        return
    if spoil_guards(st, p):
        ask(st, "spoil_guard", p)
    else:
        schedule(st, Step("spoil", p))


def _guard_legal(st: State, pd) -> list[Action]:
    return [Action("spoil")] + spoil_guards(st, pd.player)


@decision("spoil_guard", _guard_legal, lambda st, pd: "about to spoil")
def _guard_apply(st: State, pd, action: Action) -> None:
    p = pd.player
    pl = st.players[p]
    if action.verb == "spoil":
        schedule(st, Step("spoil", p))
        return
    ref = action.args[0]
    if ref.startswith("vale."):
        pos = int(ref.split(".")[1]) - 1
        v = pl.vales.pop(pos)
        pl.removed_vales.append(v)
        target = int(action.args[1][1:])
        pl.aether_cards.append(target)
        vname = st.cat.vale_list[st.vale_types[v]].name
        log(st, "guard", p, f"Player {p + 1} discards {vname} to cancel the decay on {card_name(st, target)}.")
    else:
        card, layer, k = _parse_ref(ref)
        pl.guards_used.append(f"c{card}.{layer}.{k}")
        old = pl.on_deck
        assert old is not None
        pl.on_deck = None
        discard_card(st, p, old)
        log(st, "guard", p, f"Player {p + 1} uses {card_name(st, card)} to discard the on-deck "
            f"{card_name(st, old)} instead of spoiling.")
        reveal(st, p)
    schedule(st, Step("spoil_check", p))


def _parse_ref(ref: str) -> tuple[int, int, int]:
    parts = ref[1:].split(".")
    card, layer = int(parts[0]), int(parts[1]) - 1
    k = int(parts[2]) - 1 if len(parts) > 2 else 0
    return card, layer, k


@step("spoil")
def _step_spoil(st: State, s: Step) -> None:
    """Spoiling skips the Harvest; the mana token turns to its active side (file 000)."""
    p = s.player
    pl = st.players[p]
    # The spoil ends the phase it interrupts: nothing of that phase's work may run after it
    # (a Prep phase is begun again from scratch by "prep_restart").
    del st.steps[st.turn.phase_floor:]
    st.turn.spoiled = True
    log(st, "spoil", p, f"Player {p + 1} spoils with {net_decay(st, p)} decay.")
    pl.mana_token_active = True
    work = []
    for c in list(pl.field):
        for layer, k, ab in card_abilities(st, c, "on_spoil"):
            work.append(Step("ability", p, {"card": c, "layer": layer, "k": k}))
    for q in range(len(st.players)):
        if q == p:
            continue
        for pos, v in enumerate(st.players[q].vales):
            vt = st.cat.vale_list[st.vale_types[v]]
            for k, ab in enumerate(vt.abilities):
                if ab.trigger == "opponent_spoil":
                    work.append(Step("ability", q, {"vale": v, "k": k, "spoiler": p}))
    # The spoiler's own vales that act after a spoil (Conclave of Ents), once per turn and
    # not in the turn they were bought.
    for v in pl.vales:
        if v in st.turn.new_vales:
            continue
        for k, ab in enumerate(st.cat.vale_list[st.vale_types[v]].abilities):
            if ab.trigger == "on_spoil" and f"v{v}.{k}" not in st.turn.used:
                work.append(Step("ability", p, {"vale": v, "k": k, "key": f"v{v}.{k}"}))
    if st.turn.phase == "prep":
        work.append(Step("prep_restart", p))
    else:
        work.append(Step("discard_start", p))
    schedule(st, *work)


# -- Prep --------------------------------------------------------------------------
@step("prep_start")
def _step_prep_start(st: State, s: Step) -> None:
    pl = st.players[s.player]
    begin_phase(st, "prep")
    pl.guards_used = []
    pl.aether_cards = []
    schedule(st, Step("prep_step", s.player))


@step("prep_restart")
def _step_prep_restart(st: State, s: Step) -> None:
    """Spoiling during Prep: the field is discarded and Prep begins again (our reading,
    docs/rules-decisions.md)."""
    pl = st.players[s.player]
    kept = [c for c in st.turn.kept if c in pl.field]   # kept by an ability (Conclave of Ents)
    for c in pl.field:
        if c not in kept:
            discard_card(st, s.player, c)
    pl.field = kept
    st.turn.kept = []
    begin_phase(st, "prep")
    schedule(st, Step("prep_step", s.player))


@step("prep_step")
def _step_prep(st: State, s: Step) -> None:
    """Prep: play cards into the field until 3 or more decay show (file 000)."""
    p = s.player
    pl = st.players[p]
    if pl.on_deck is None and not pl.harvest_next and (pl.deck or pl.discard):
        # Every card was in the field, so none could be revealed (file 000: "If all of
        # your cards are in your field, then you must pass"); they are in the discard pile
        # now.  Prep needs an on-deck card: "whenever your deck is empty and you need to
        # reveal a new on-deck card, shuffle your discard pile" (file 000).
        schedule(st, Step("reveal", p), Step("spoil_check", p), Step("prep_step", p))
        return
    if net_decay(st, p) >= PREP_UNTIL or pl.on_deck is None or pl.harvest_next:
        schedule(st, *end_of_prep(st, p))
        return
    if st.ruleset.prep_early_stop and decay_symbols(st, p) > PREP_STOP_OVER:
        # German rules: with more than 2 decay symbols showing the player may stop, though
        # growth keeps the decay showing below 3 (docs/rules-decisions.md, "Rule sets").
        ask(st, "prep_stop", p)
        return
    prep_play(st, p)


def prep_play(st: State, p: int) -> None:
    """Prep plays the on-deck card into the field and reveals the next, then goes on."""
    schedule(st, *play_on_deck(st, p), Step("spoil_check", p), Step("prep_step", p))


def _prep_stop_legal(st: State, pd) -> list[Action]:
    return [Action("stop"), Action("push")]


def _prep_stop_describe(st: State, pd) -> str:
    return (f"stopping the Prep phase or playing on ({decay_symbols(st, pd.player)} decay symbols, "
            f"{net_decay(st, pd.player)} after growth)")


@decision("prep_stop", _prep_stop_legal, _prep_stop_describe)
def _prep_stop_apply(st: State, pd, action: Action) -> None:
    p = pd.player
    if action.verb == "stop":
        log(st, "prep_stop", p, f"Player {p + 1} stops the Prep phase with {decay_symbols(st, p)} decay "
            f"symbols showing.")
        schedule(st, *end_of_prep(st, p))
    else:
        log(st, "push", p, f"Player {p + 1} goes on with the Prep phase and plays "
            f"{card_name(st, st.players[p].on_deck)}.")
        prep_play(st, p)


# -- end of turn and of game -------------------------------------------------------
def end_of_prep(st: State, p: int) -> list[Step]:
    """The Prep phase is over: the turn ends.  With the interface option ``finish_turn`` the
    player first concludes it with ``finish`` (file 000, yucata: "you always have to conclude
    the Prep Phase explicitly with the 'Finish Turn' button"), so the last choice made in the
    Prep (a When Played ability, the German rules' stop) can still be taken back."""
    if st.finish_turn:
        return [Step("finish_turn", p), Step("end_turn", p)]
    return [Step("end_turn", p)]


@step("finish_turn")
def _step_finish_turn(st: State, s: Step) -> None:
    ask(st, "finish_turn", s.player)


@decision("finish_turn", lambda st, pd: [Action("finish")],
          lambda st, pd: "finishing the turn (Finish Turn)")
def _finish_turn_apply(st: State, pd, action: Action) -> None:
    log(st, "finish_turn", pd.player, f"Player {pd.player + 1} finishes the turn.")


@step("end_turn")
def _step_end_turn(st: State, s: Step) -> None:
    p = s.player
    n = len(st.players)
    last_seat = (st.first_player - 1) % n
    if st.extra_turns and st.extra_turns[0] == p:
        st.extra_turns.pop(0)
        log(st, "extra_turn", p, f"Player {p + 1} takes another turn.")
        st.turn_number += 1
        start_turn(st, p)
        return
    if p == last_seat:
        if st.end_triggered is not None:
            finish_game(st)
            return
        st.round += 1
    st.turn_number += 1
    start_turn(st, (p + 1) % n)


def finish_game(st: State) -> None:
    st.over = True
    st.turn.phase = "over"
    st.steps.clear()
    st.pending.clear()
    log(st, "game_over", None, "The game is over.")


def legal_for_phase(st: State) -> list[Action]:
    """The legal actions of the current state."""
    if st.over:
        return []
    if st.pending:
        pd = st.pending[-1]
        return DECISIONS[pd.kind].legal(st, pd)
    if st.turn.phase == "planting":
        return planting_legal(st)
    return HARVEST["legal"](st)


class _NoMemo(dict):
    """The memo while an action is applied: the state changes step by step then, so
    nothing derived from it may be kept (every lookup misses, every store is dropped)."""

    def __setitem__(self, key, value) -> None:
        pass

    def setdefault(self, key, default=None):
        return default

    def update(self, *args, **kwargs) -> None:
        pass


_NO_MEMO = _NoMemo()


def apply(st: State, action: Action) -> None:
    """Apply an action already checked to be legal, and run the rules that follow."""
    known = st.memo     # derived from the state as it was when the action was chosen
    st.memo = _NO_MEMO
    try:
        if st.pending:
            pd = st.pending.pop()
            DECISIONS[pd.kind].apply(st, pd, action)
        elif st.turn.phase == "planting":
            apply_planting(st, action)
        else:
            HARVEST["apply"](st, action, known)
        run(st)
    finally:
        st.memo = {}


def acting_player(st: State) -> int | None:
    if st.over:
        return None
    if st.pending:
        return st.pending[-1].player
    return st.current

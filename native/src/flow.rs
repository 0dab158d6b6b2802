//! Twin of mysticvale/engine/flow.py: the turn (Planting, spoiling, Prep, the end of a
//! turn and of the game), and the loop that runs scheduled rules work.
//!
//! Rules work is a stack of [`Step`] records run by [`run`]; a step that needs a player's
//! choice opens a [`Pending`] decision and the run stops until an action answers it.
//! Harvest and Discard live in their own modules; `registry` finds each kind's handler.
#![forbid(unsafe_code)]

use std::sync::Arc;

use crate::actions::{Notation, Verb};
use crate::card_types::{Ability, Effect, Trigger};
use crate::catalogue::Catalogue;
use crate::pyjson::{Key, J};
use crate::sleeve::AbilityRef;
use crate::state::{CardId, Pending, State, Step, Turn};
use crate::zones::{
    ask, card_at, card_name, card_stats, decay_symbols, discard_card, get, int, log, net_decay, player_card_sentence,
    reveal, schedule, step, text, Data,
};
use crate::{harvest, registry};

/// Decay that spoils (file 000).
pub const SPOIL_AT: i64 = 4;
/// Prep reveals until this much decay shows (file 000).
pub const PREP_UNTIL: i64 = 3;
/// German rules: Prep may stop with more than this many decay symbols (file 000).
pub const PREP_STOP_OVER: i64 = 2;

/// The step kinds this module runs.
pub const STEPS: &[&str] = &[
    "ability",
    "queue",
    "when_played",
    "reveal_pause",
    "reveal",
    "spoil_check",
    "spoil",
    "prep_start",
    "prep_restart",
    "prep_step",
    "finish_turn",
    "end_turn",
];
/// The decision kinds this module owns.
pub const DECISIONS: &[&str] = &["order", "reveal_next", "spoil_guard", "prep_stop", "finish_turn"];

fn act(verb: Verb, args: &[&str]) -> Notation {
    Notation { verb, args: args.iter().map(|a| Box::<str>::from(*a)).collect() }
}

fn entry(key: &'static str, v: J) -> (Key, J) {
    (key.into(), v)
}

// -- abilities as sources ----------------------------------------------------------

/// The notation naming a card's ability, as `use` and `resolve` write it: `#7.2` for the
/// first ability of card #7's second layer, `#7.2.2` for that layer's second ability
/// (Python's `ability_ref`; `layer` and `k` count from 0).
pub fn ability_ref(card: CardId, layer: u8, k: u8) -> String {
    let layer = u16::from(layer) + 1;
    if k == 0 {
        format!("#{card}.{layer}")
    } else {
        format!("#{card}.{layer}.{}", u16::from(k) + 1)
    }
}

/// Read an ability's notation back (Python's `_parse_ref`): `#7.2.2` is card 7, layer 1,
/// ability 1 (`k` is 0 without a third part). `None` when it is not such notation.
pub fn parse_ref(r: &str) -> Option<(CardId, u8, u8)> {
    let mut parts = r.strip_prefix('#')?.split('.');
    let card = parts.next()?.parse::<CardId>().ok()?;
    let layer = parts.next()?.parse::<u8>().ok()?.checked_sub(1)?;
    let k = match parts.next() {
        Some(x) => x.parse::<u8>().ok()?.checked_sub(1)?,
        None => 0,
    };
    Some((card, layer, k))
}

/// `(layer, k, ability)` of a card's active abilities with this trigger, in the card's
/// order (Python's `card_abilities`).
///
/// Abilities of advancements sleeved this turn are not active this turn (file 000,
/// Earthchant Chorus; file 000 yucata notes, Hatchery), unless `include_new`.
pub fn card_abilities(st: &State, card: CardId, trigger: Trigger, include_new: bool) -> Vec<(u8, u8, AbilityRef)> {
    let s = card_stats(st, card);
    let new = &st.turn.new_layers;
    s.by_trigger(&st.cat, trigger)
        .filter(|(layer, _, _)| include_new || !new.contains(&[i64::from(card), i64::from(*layer)]))
        .collect()
}

/// The `k`-th active ability of a card's layer (Python's `ability_at`); `None` when the
/// card has no such ability. The ability is borrowed from `cat` (the state's catalogue,
/// `st.cat`), so that the caller may change the state while it holds it.
pub fn ability_at<'c>(cat: &'c Catalogue, st: &State, card: CardId, layer: u8, k: usize) -> Option<&'c Ability> {
    card_stats(st, card).abilities.iter().filter(|r| r.layer == layer).nth(k).map(|r| r.ability(cat))
}

/// The ability a step's data points at: a card's layer (`card`, `layer`, `k`), a vale
/// (`vale`, `k`) or a bought copy (`copy`, `k`) (Python's `ability_of`; `k` is 0 when
/// missing). Borrowed from `cat`, the state's catalogue, as in [`ability_at`].
pub fn ability_of<'c>(cat: &'c Catalogue, st: &State, d: &Data) -> Option<&'c Ability> {
    let k = usize::try_from(int(d, "k")).ok()?;
    if get(d, "vale").is_some() {
        let v = usize::try_from(int(d, "vale")).ok()?;
        let t = *st.vale_types.get(v)?;
        return cat.vales.get(usize::from(t))?.abilities.get(k);
    }
    if get(d, "copy").is_some() {
        let c = u16::try_from(int(d, "copy")).ok()?;
        let copy = cat.copies.get(usize::from(c))?;
        return cat.types.get(usize::from(copy.type_id))?.abilities.get(k);
    }
    let layer = u8::try_from(int(d, "layer")).ok()?;
    ability_at(cat, st, card_at(d, "card"), layer, k)
}

/// Step data for the unused abilities with `trigger` on these cards, in their order
/// (Python's `trigger_items`): `card`, `layer`, `k`, `ref` (its notation) and `key` (what
/// marks it used).
///
/// Each ability acts once per turn (file 000, Using Abilities): a card played again in
/// the same turn (discarded, reshuffled and pushed again) does not trigger twice.
pub fn trigger_items(st: &State, cards: &[CardId], trigger: Trigger) -> Vec<Data> {
    let mut items = Vec::new();
    for &card in cards {
        for (layer, k, _) in card_abilities(st, card, trigger, false) {
            let key = format!("c{card}.{layer}.{k}");
            if st.turn.used.iter().any(|u| **u == *key) {
                continue;
            }
            items.push(vec![
                entry("card", J::Int(i64::from(card))),
                entry("layer", J::Int(i64::from(layer))),
                entry("k", J::Int(i64::from(k))),
                entry("ref", J::Str(ability_ref(card, layer, k).into())),
                entry("key", J::Str(key.into())),
            ]);
        }
    }
    items
}

/// Schedule simultaneous triggered abilities (Python's `queue_triggered`): one resolves
/// at once, several are ordered by the active player (file 000) in an `order` decision.
pub fn queue_triggered(st: &mut State, p: u8, mut items: Vec<Data>) {
    if items.len() > 1 {
        let list = J::List(items.into_iter().map(J::Map).collect());
        ask(st, "order", p, Vec::new(), vec![entry("items", list)]);
    } else if let Some(item) = items.pop() {
        schedule(st, [step("ability", p, item)]);
    }
}

/// The items of an `order` decision or a `queue` step.
fn items_of(d: &Data) -> Vec<Data> {
    match get(d, "items") {
        Some(J::List(items)) => {
            items.iter().filter_map(|it| if let J::Map(m) = it { Some(m.clone()) } else { None }).collect()
        }
        _ => Vec::new(),
    }
}

/// Resolve one ability: `data` holds card/layer/k or vale (or copy), and the key to mark
/// used.
fn step_ability(st: &mut State, s: &Step) {
    let cat = Arc::clone(&st.cat);
    let Some(ab) = ability_of(&cat, st, &s.data) else { return };
    let key = text(&s.data, "key");
    if !key.is_empty() {
        st.turn.used.push(key.into());
    }
    registry::resolve(st, s.player, ab, &s.data);
}

fn order_legal(pd: &Pending) -> Vec<Notation> {
    items_of(&pd.data).iter().map(|it| act(Verb::Resolve, &[text(it, "ref")])).collect()
}

fn order_apply(st: &mut State, pd: &Pending, action: &Notation) {
    let mut items = items_of(&pd.data);
    let Some(want) = action.args.first() else { return };
    let Some(i) = items.iter().position(|it| text(it, "ref") == &**want) else { return };
    let chosen = items.remove(i);
    // The rest are ordered again after this one resolves.
    let rest = J::List(items.into_iter().map(J::Map).collect());
    schedule(st, [step("ability", pd.player, chosen), step("queue", pd.player, vec![entry("items", rest)])]);
}

// -- the turn ----------------------------------------------------------------------

/// A phase of the turn begins: the rules work scheduled from now on is that phase's.
///
/// A spoil ends the Planting or Prep phase it interrupts (file 000: "When you Spoil, you
/// immediately skip your Harvest Phase and jump straight to your Discard Phase"), so the
/// spoil drops every step of that phase still waiting (see the "spoil" step); this marks
/// where they begin on the step stack.
pub fn begin_phase(st: &mut State, phase: &'static str) {
    st.turn.phase = phase;
    st.turn.phase_floor = i64::try_from(st.steps.len()).unwrap_or(i64::MAX);
}

/// Player `p`'s turn begins (Python's `start_turn`).
pub fn start_turn(st: &mut State, p: u8) {
    st.current = p;
    st.turn = Turn::new(p);
    // `turn` and `action` let checks see that every turn starts once, after an action.
    let text = format!("Round {}: Player {}'s turn.", st.round, u16::from(p) + 1);
    let data = vec![
        entry("turn", J::Int(st.turn_number)),
        entry("action", J::Int(i64::try_from(st.history.len()).unwrap_or(i64::MAX))),
    ];
    log(st, "turn", Some(p), text, data);
    if let Some(pl) = st.players.get_mut(usize::from(p)) {
        if pl.harvest_next {
            // Hectoro's upgraded side was played in Prep: this turn begins with the Harvest
            // (file 003); nothing is played and nothing can spoil.
            pl.harvest_next = false;
            begin_phase(st, "harvest");
            schedule(st, [step("harvest_start", p, Vec::new())]);
            return;
        }
    }
    begin_phase(st, "planting");
    // A reveal outside the Planting/Prep phases (Echoing Waterfalls) that would spoil
    // spoils at the start of the next Planting phase (file 003).
    schedule(st, [step("spoil_check", p, Vec::new())]);
}

/// The Planting phase's actions when no decision is open.
pub fn planting_legal(st: &State) -> Vec<Notation> {
    let pass = act(Verb::Pass, &[]);
    let on_deck = st.players.get(usize::from(st.current)).and_then(|pl| pl.on_deck);
    if on_deck.is_none() {
        return vec![pass]; // all cards are in the field: you must pass (file 000)
    }
    vec![act(Verb::Push, &[]), pass]
}

/// Apply a Planting action: `pass` goes on to the Harvest, `push` plays the on-deck card.
pub fn apply_planting(st: &mut State, action: &Notation) {
    let p = st.current;
    if action.verb == Verb::Pass {
        log(st, "pass", Some(p), format!("Player {} passes.", u16::from(p) + 1), Vec::new());
        begin_phase(st, "harvest");
        schedule(st, [step("harvest_start", p, Vec::new())]);
    } else {
        let Some(card) = st.players.get(usize::from(p)).and_then(|pl| pl.on_deck) else { return };
        let text = player_card_sentence(st, p, " pushes ", card, ".");
        log(st, "push", Some(p), text, Vec::new());
        let mut work = play_on_deck(st, p);
        work.push(step("spoil_check", p, Vec::new()));
        schedule(st, work);
    }
}

/// Place the on-deck card into the field; return the steps that follow: resolve its
/// When Played abilities, then reveal the next on-deck card (file 000, Planting step B).
///
/// With the interface option `finish_turn` the reveal waits for the player's `reveal`
/// after a When Played ability the player used (see the "reveal_pause" step). No steps
/// when there is no on-deck card.
pub fn play_on_deck(st: &mut State, p: u8) -> Vec<Step> {
    let Some(pl) = st.players.get_mut(usize::from(p)) else { return Vec::new() };
    let Some(card) = pl.on_deck.take() else { return Vec::new() };
    pl.field.push(card);
    let mut work = vec![step("when_played", p, vec![entry("card", J::Int(i64::from(card)))])];
    if st.finish_turn {
        let mark = i64::try_from(st.history.len()).unwrap_or(i64::MAX);
        work.push(step("reveal_pause", p, vec![entry("mark", J::Int(mark))]));
    }
    work.push(step("reveal", p, Vec::new()));
    work
}

fn step_when_played(st: &mut State, s: &Step) {
    let items = trigger_items(st, &[card_at(&s.data, "card")], Trigger::WhenPlayed);
    queue_triggered(st, s.player, items);
}

/// yucata's interface (file 000): "if there are usable abilities (usually 'When Played'
/// abilities), you explicitly have to click on the deck to reveal the next card. This
/// enables you to undo use of the ability." A When Played ability was usable when its
/// resolution asked the player something (a choice, or whether to use an optional
/// ability): an action was answered since the card was played (`mark`: the number of
/// actions then). Abilities that resolve by themselves do not stop the reveal.
fn step_reveal_pause(st: &mut State, s: &Step) {
    if i64::try_from(st.history.len()).unwrap_or(i64::MAX) > int(&s.data, "mark") {
        ask(st, "reveal_next", s.player, Vec::new(), Vec::new());
    }
}

fn step_reveal(st: &mut State, s: &Step) {
    if st.players.get(usize::from(s.player)).is_some_and(|pl| pl.on_deck.is_none()) {
        reveal(st, s.player);
    }
}

// -- spoiling ----------------------------------------------------------------------

/// Ways for player `p` to avoid spoiling now (Peacekeeper Druid, Aether Tree), as `guard`
/// actions in Python's order.
pub fn spoil_guards(st: &State, p: u8) -> Vec<Notation> {
    let Some(pl) = st.players.get(usize::from(p)) else { return Vec::new() };
    let mut out = Vec::new();
    for &c in &pl.field {
        for (layer, k, r) in card_abilities(st, c, Trigger::SpoilGuard, false) {
            if matches!(r.ability(&st.cat).effect, Effect::DiscardOnDeckInstead {})
                && !pl.guards_used.iter().any(|g| **g == *format!("c{c}.{layer}.{k}"))
                && pl.on_deck.is_some()
            {
                out.push(act(Verb::Guard, &[&ability_ref(c, layer, k)]));
            }
        }
    }
    for (pos, &v) in pl.vales.iter().enumerate() {
        if st.turn.new_vales.contains(&v) && st.turn.player == p {
            continue;
        }
        let Some(vt) = st.vale_types.get(usize::from(v)).and_then(|&t| st.cat.vales.get(usize::from(t))) else {
            continue;
        };
        for ab in &vt.abilities {
            if ab.trigger == Trigger::SpoilGuard && matches!(ab.effect, Effect::CancelDecayOnCard {}) {
                let mut targets = pl.field.clone();
                if st.ruleset.aether_tree_on_deck {
                    targets.extend(pl.on_deck);
                }
                for c in targets {
                    let s = card_stats(st, c);
                    if !pl.aether_cards.contains(&c) && s.get(crate::card_types::Symbol::Decay) > s.aether_decay {
                        out.push(act(Verb::Guard, &[&format!("vale.{}", pos + 1), &format!("#{c}")]));
                    }
                }
            }
        }
    }
    out
}

fn step_spoil_check(st: &mut State, s: &Step) {
    let p = s.player;
    let harvest_next = st.players.get(usize::from(p)).is_some_and(|pl| pl.harvest_next);
    if !matches!(st.turn.phase, "planting" | "prep") || harvest_next {
        return;
    }
    if net_decay(st, p) < SPOIL_AT {
        return;
    }
    if spoil_guards(st, p).is_empty() {
        schedule(st, [step("spoil", p, Vec::new())]);
    } else {
        ask(st, "spoil_guard", p, Vec::new(), Vec::new());
    }
}

fn guard_legal(st: &State, pd: &Pending) -> Vec<Notation> {
    let mut out = vec![act(Verb::Spoil, &[])];
    out.extend(spoil_guards(st, pd.player));
    out
}

fn guard_apply(st: &mut State, pd: &Pending, action: &Notation) {
    let p = pd.player;
    let who = u16::from(p) + 1;
    if action.verb == Verb::Spoil {
        schedule(st, [step("spoil", p, Vec::new())]);
        return;
    }
    let Some(r) = action.args.first() else { return };
    if let Some(rest) = r.strip_prefix("vale.") {
        let Some(pos) = rest.parse::<usize>().ok().and_then(|x| x.checked_sub(1)) else { return };
        let Some(target) = action.args.get(1).and_then(|t| t.strip_prefix('#')).and_then(|t| t.parse::<CardId>().ok())
        else {
            return;
        };
        let Some(pl) = st.players.get_mut(usize::from(p)) else { return };
        if pos >= pl.vales.len() {
            return;
        }
        let v = pl.vales.remove(pos);
        pl.removed_vales.push(v);
        pl.aether_cards.push(target);
        let vname = st
            .vale_types
            .get(usize::from(v))
            .and_then(|&t| st.cat.vales.get(usize::from(t)))
            .map_or_else(String::new, |vt| vt.name.to_string());
        let text = format!("Player {who} discards {vname} to cancel the decay on {}.", card_name(st, target));
        log(st, "guard", Some(p), text, Vec::new());
    } else {
        let Some((card, layer, k)) = parse_ref(r) else { return };
        let Some(pl) = st.players.get_mut(usize::from(p)) else { return };
        let Some(old) = pl.on_deck.take() else { return };
        pl.guards_used.push(format!("c{card}.{layer}.{k}").into());
        discard_card(st, p, old);
        let text = format!(
            "Player {who} uses {} to discard the on-deck {} instead of spoiling.",
            card_name(st, card),
            card_name(st, old)
        );
        log(st, "guard", Some(p), text, Vec::new());
        reveal(st, p);
    }
    schedule(st, [step("spoil_check", p, Vec::new())]);
}

/// Spoiling skips the Harvest; the mana token turns to its active side (file 000).
fn step_spoil(st: &mut State, s: &Step) {
    let p = s.player;
    // The spoil ends the phase it interrupts: nothing of that phase's work may run after it
    // (a Prep phase is begun again from scratch by "prep_restart").
    let floor = st.turn.phase_floor;
    let len = st.steps.len();
    let cut = match usize::try_from(floor) {
        Ok(f) => f.min(len),
        // Python's `del steps[-n:]`.
        Err(_) => len.saturating_sub(usize::try_from(floor.unsigned_abs()).unwrap_or(usize::MAX)),
    };
    st.steps.truncate(cut);
    st.turn.spoiled = true;
    let text = format!("Player {} spoils with {} decay.", u16::from(p) + 1, net_decay(st, p));
    log(st, "spoil", Some(p), text, Vec::new());
    let Some(pl) = st.players.get_mut(usize::from(p)) else { return };
    pl.mana_token_active = true;
    let field = pl.field.clone();
    let own_vales = pl.vales.clone();
    let mut work = Vec::new();
    for c in field {
        for (layer, k, _) in card_abilities(st, c, Trigger::OnSpoil, false) {
            let d = vec![
                entry("card", J::Int(i64::from(c))),
                entry("layer", J::Int(i64::from(layer))),
                entry("k", J::Int(i64::from(k))),
            ];
            work.push(step("ability", p, d));
        }
    }
    let vale_abilities = |v: u16| -> &[Ability] {
        st.vale_types
            .get(usize::from(v))
            .and_then(|&t| st.cat.vales.get(usize::from(t)))
            .map_or(&[][..], |vt| &vt.abilities[..])
    };
    for (q, other) in (0u8..).zip(&st.players) {
        if q == p {
            continue;
        }
        for &v in &other.vales {
            for (k, ab) in vale_abilities(v).iter().enumerate() {
                if ab.trigger == Trigger::OpponentSpoil {
                    let d = vec![
                        entry("vale", J::Int(i64::from(v))),
                        entry("k", J::Int(i64::try_from(k).unwrap_or(0))),
                        entry("spoiler", J::Int(i64::from(p))),
                    ];
                    work.push(step("ability", q, d));
                }
            }
        }
    }
    // The spoiler's own vales that act after a spoil (Conclave of Ents), once per turn and
    // not in the turn they were bought.
    for v in own_vales {
        if st.turn.new_vales.contains(&v) {
            continue;
        }
        for (k, ab) in vale_abilities(v).iter().enumerate() {
            let key = format!("v{v}.{k}");
            if ab.trigger == Trigger::OnSpoil && !st.turn.used.iter().any(|u| **u == *key) {
                let d = vec![
                    entry("vale", J::Int(i64::from(v))),
                    entry("k", J::Int(i64::try_from(k).unwrap_or(0))),
                    entry("key", J::Str(key.into())),
                ];
                work.push(step("ability", p, d));
            }
        }
    }
    if st.turn.phase == "prep" {
        work.push(step("prep_restart", p, Vec::new()));
    } else {
        work.push(step("discard_start", p, Vec::new()));
    }
    schedule(st, work);
}

// -- Prep --------------------------------------------------------------------------

fn step_prep_start(st: &mut State, s: &Step) {
    begin_phase(st, "prep");
    if let Some(pl) = st.players.get_mut(usize::from(s.player)) {
        pl.guards_used.clear();
        pl.aether_cards.clear();
    }
    schedule(st, [step("prep_step", s.player, Vec::new())]);
}

/// The field goes to the discard pile, but for the cards an ability keeps (Conclave of
/// Ents), which stay as the first cards of the next field, in the order they were kept
/// (shared with discard's "discard_field" step).
pub fn discard_field_keeping(st: &mut State, p: u8) {
    let Some(pl) = st.players.get_mut(usize::from(p)) else { return };
    let field = std::mem::take(&mut pl.field);
    let kept: Vec<CardId> = st.turn.kept.iter().copied().filter(|c| field.contains(c)).collect();
    for c in field {
        if !kept.contains(&c) {
            discard_card(st, p, c);
        }
    }
    if let Some(pl) = st.players.get_mut(usize::from(p)) {
        pl.field = kept;
    }
    st.turn.kept.clear();
}

/// Spoiling during Prep: the field is discarded and Prep begins again (our reading,
/// docs/rules-decisions.md).
fn step_prep_restart(st: &mut State, s: &Step) {
    discard_field_keeping(st, s.player);
    begin_phase(st, "prep");
    schedule(st, [step("prep_step", s.player, Vec::new())]);
}

/// Prep: play cards into the field until 3 or more decay show (file 000).
fn step_prep(st: &mut State, s: &Step) {
    let p = s.player;
    let Some(pl) = st.players.get(usize::from(p)) else { return };
    if pl.on_deck.is_none() && !pl.harvest_next && (!pl.deck.is_empty() || !pl.discard.is_empty()) {
        // Every card was in the field, so none could be revealed (file 000: "If all of
        // your cards are in your field, then you must pass"); they are in the discard pile
        // now. Prep needs an on-deck card: "whenever your deck is empty and you need to
        // reveal a new on-deck card, shuffle your discard pile" (file 000).
        schedule(
            st,
            [step("reveal", p, Vec::new()), step("spoil_check", p, Vec::new()), step("prep_step", p, Vec::new())],
        );
        return;
    }
    if pl.on_deck.is_none() || pl.harvest_next || net_decay(st, p) >= PREP_UNTIL {
        let work = end_of_prep(st, p);
        schedule(st, work);
        return;
    }
    if st.ruleset.prep_early_stop && decay_symbols(st, p) > PREP_STOP_OVER {
        // German rules: with more than 2 decay symbols showing the player may stop, though
        // growth keeps the decay showing below 3 (docs/rules-decisions.md, "Rule sets").
        ask(st, "prep_stop", p, Vec::new(), Vec::new());
        return;
    }
    prep_play(st, p);
}

/// Prep plays the on-deck card into the field and reveals the next, then goes on.
pub fn prep_play(st: &mut State, p: u8) {
    let mut work = play_on_deck(st, p);
    work.push(step("spoil_check", p, Vec::new()));
    work.push(step("prep_step", p, Vec::new()));
    schedule(st, work);
}

fn prep_stop_describe(st: &State, pd: &Pending) -> String {
    format!(
        "stopping the Prep phase or playing on ({} decay symbols, {} after growth)",
        decay_symbols(st, pd.player),
        net_decay(st, pd.player)
    )
}

fn prep_stop_apply(st: &mut State, pd: &Pending, action: &Notation) {
    let p = pd.player;
    let who = u16::from(p) + 1;
    if action.verb == Verb::Stop {
        let text = format!("Player {who} stops the Prep phase with {} decay symbols showing.", decay_symbols(st, p));
        log(st, "prep_stop", Some(p), text, Vec::new());
        let work = end_of_prep(st, p);
        schedule(st, work);
    } else {
        let Some(card) = st.players.get(usize::from(p)).and_then(|pl| pl.on_deck) else { return };
        let text = format!("Player {who} goes on with the Prep phase and plays {}.", card_name(st, card));
        log(st, "push", Some(p), text, Vec::new());
        prep_play(st, p);
    }
}

// -- end of turn and of game -------------------------------------------------------

/// The Prep phase is over: the turn ends. With the interface option `finish_turn` the
/// player first concludes it with `finish` (file 000, yucata: "you always have to conclude
/// the Prep Phase explicitly with the 'Finish Turn' button"), so the last choice made in
/// the Prep (a When Played ability, the German rules' stop) can still be taken back.
pub fn end_of_prep(st: &State, p: u8) -> Vec<Step> {
    if st.finish_turn {
        return vec![step("finish_turn", p, Vec::new()), step("end_turn", p, Vec::new())];
    }
    vec![step("end_turn", p, Vec::new())]
}

fn step_end_turn(st: &mut State, s: &Step) {
    let p = s.player;
    let n = st.players.len();
    if n == 0 {
        return;
    }
    let last_seat = (usize::from(st.first_player) + n - 1) % n;
    if st.extra_turns.first() == Some(&p) {
        st.extra_turns.remove(0);
        log(st, "extra_turn", Some(p), format!("Player {} takes another turn.", u16::from(p) + 1), Vec::new());
        st.turn_number += 1;
        start_turn(st, p);
        return;
    }
    if usize::from(p) == last_seat {
        if st.end_triggered.is_some() {
            finish_game(st);
            return;
        }
        st.round += 1;
    }
    st.turn_number += 1;
    let next = u8::try_from((usize::from(p) + 1) % n).unwrap_or(0);
    start_turn(st, next);
}

/// The game is over: nothing more is scheduled or asked (Python's `finish_game`).
pub fn finish_game(st: &mut State) {
    st.over = true;
    st.turn.phase = "over";
    st.steps.clear();
    st.pending.clear();
    log(st, "game_over", None, "The game is over.".into(), Vec::new());
}

// -- the registry's entry points ---------------------------------------------------

/// Run a step of one of [`STEPS`] (false: not this module's kind).
pub fn run_step(st: &mut State, s: &Step) -> bool {
    match &*s.kind {
        "ability" => step_ability(st, s),
        "queue" => queue_triggered(st, s.player, items_of(&s.data)),
        "when_played" => step_when_played(st, s),
        "reveal_pause" => step_reveal_pause(st, s),
        "reveal" => step_reveal(st, s),
        "spoil_check" => step_spoil_check(st, s),
        "spoil" => step_spoil(st, s),
        "prep_start" => step_prep_start(st, s),
        "prep_restart" => step_prep_restart(st, s),
        "prep_step" => step_prep(st, s),
        "finish_turn" => ask(st, "finish_turn", s.player, Vec::new(), Vec::new()),
        "end_turn" => step_end_turn(st, s),
        _ => return false,
    }
    true
}

/// The legal actions of one of [`DECISIONS`], in Python's order.
pub fn legal(st: &State, pd: &Pending) -> Option<Vec<Notation>> {
    Some(match &*pd.kind {
        "order" => order_legal(pd),
        "reveal_next" => vec![act(Verb::Reveal, &[])],
        "spoil_guard" => guard_legal(st, pd),
        "prep_stop" => vec![act(Verb::Stop, &[]), act(Verb::Push, &[])],
        "finish_turn" => vec![act(Verb::Finish, &[])],
        _ => return None,
    })
}

/// Apply a legal action to one of [`DECISIONS`] (already popped); the decision back when it
/// is not this module's.
pub fn apply(st: &mut State, pd: Pending, action: &Notation) -> Option<Pending> {
    match &*pd.kind {
        "order" => order_apply(st, &pd, action),
        // The player goes on: the "reveal" step that follows turns up the next on-deck card.
        "reveal_next" => {}
        "spoil_guard" => guard_apply(st, &pd, action),
        "prep_stop" => prep_stop_apply(st, &pd, action),
        "finish_turn" => {
            let text = format!("Player {} finishes the turn.", u16::from(pd.player) + 1);
            log(st, "finish_turn", Some(pd.player), text, Vec::new());
        }
        _ => return Some(pd),
    }
    None
}

/// What other seats read while one of [`DECISIONS`] is open.
pub fn describe(st: &State, pd: &Pending) -> Option<String> {
    Some(match &*pd.kind {
        "order" => "choosing the order of abilities".to_owned(),
        "reveal_next" => "revealing the next on-deck card".to_owned(),
        "spoil_guard" => "about to spoil".to_owned(),
        "prep_stop" => prep_stop_describe(st, pd),
        "finish_turn" => "finishing the turn (Finish Turn)".to_owned(),
        _ => return None,
    })
}

/// Run scheduled rules work until a decision is needed or nothing is left.
pub fn run(st: &mut State) {
    while st.pending.is_empty() && !st.over {
        let Some(s) = st.steps.pop() else { break };
        registry::run_step(st, &s);
    }
    // The legal actions come next: renew the card stats they read (a cache only).
    crate::zones::refresh_stats(st);
}

/// The legal actions of the current state (Python's `legal_for_phase`).
pub fn legal_for_phase(st: &State) -> Vec<Notation> {
    if st.over {
        return Vec::new();
    }
    if let Some(pd) = st.pending.last() {
        return registry::legal(st, pd);
    }
    if st.turn.phase == "planting" {
        return planting_legal(st);
    }
    harvest::legal(st)
}

/// Apply an action already checked to be legal, and run the rules that follow (Python's
/// `flow.apply`; the caller has recorded it in the history).
pub fn apply_action(st: &mut State, action: &Notation) {
    apply_without_run(st, action);
    run(st);
}

/// The work of an action itself: the open decision's, or the phase's (Planting or Harvest);
/// [`apply_action`] then runs the rules that follow.
pub fn apply_without_run(st: &mut State, action: &Notation) {
    if let Some(pd) = st.pending.pop() {
        registry::apply(st, pd, action);
    } else if st.turn.phase == "planting" {
        apply_planting(st, action);
    } else {
        harvest::apply(st, action);
    }
}

/// The seat that must act now (`None` once the game is over).
pub fn acting_player(st: &State) -> Option<u8> {
    if st.over {
        return None;
    }
    Some(st.pending.last().map_or(st.current, |pd| pd.player))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::testing::midgame;

    fn pending(kind: &str, player: u8) -> Pending {
        Pending { kind: kind.into(), player, data: Vec::new(), private: Vec::new() }
    }

    #[test]
    fn ability_notation_reads_back() {
        assert_eq!(ability_ref(7, 1, 0), "#7.2");
        assert_eq!(ability_ref(12, 0, 1), "#12.1.2");
        assert_eq!(parse_ref("#7.2"), Some((7, 1, 0)));
        assert_eq!(parse_ref("#12.1.2"), Some((12, 0, 1)));
        for (c, l, k) in [(0, 0, 0), (300, 2, 3), (65535, 254, 254)] {
            assert_eq!(parse_ref(&ability_ref(c, l, k)), Some((c, l, k)));
        }
        assert_eq!(parse_ref("7.2"), None);
        assert_eq!(parse_ref("#7.0"), None);
        assert_eq!(parse_ref("#7"), None);
        assert_eq!(parse_ref("vale.1"), None);
    }

    #[test]
    fn decisions_read_as_in_python() {
        let st = midgame();
        // Python's DECISIONS[kind].describe on the same save.
        let said = |kind: &str| describe(&st, &pending(kind, 0));
        assert_eq!(said("order").as_deref(), Some("choosing the order of abilities"));
        assert_eq!(said("reveal_next").as_deref(), Some("revealing the next on-deck card"));
        assert_eq!(said("spoil_guard").as_deref(), Some("about to spoil"));
        assert_eq!(
            said("prep_stop").as_deref(),
            Some("stopping the Prep phase or playing on (3 decay symbols, 3 after growth)")
        );
        assert_eq!(said("finish_turn").as_deref(), Some("finishing the turn (Finish Turn)"));
        assert_eq!(said("sleeve"), None, "discard's, not flow's");
        assert_eq!(legal(&st, &pending("prep_stop", 0)).unwrap(), vec![act(Verb::Stop, &[]), act(Verb::Push, &[])]);
    }

    #[test]
    fn the_last_seat_ends_the_round_and_the_game_once_its_end_is_triggered() {
        let mut st = midgame();
        let end = step("end_turn", 1, Vec::new());
        let mut next = st.clone();
        assert!(run_step(&mut next, &end));
        assert_eq!((next.round, next.turn_number, next.current, next.turn.phase), (7, 19, 2, "planting"));
        assert_eq!(next.steps, vec![step("spoil_check", 2, Vec::new())]);
        assert_eq!(next.events.last().unwrap().text, "Round 7: Player 3's turn.");
        st.end_triggered = Some("vp_pool".into());
        st.steps.push(step("prep_step", 1, Vec::new()));
        assert!(run_step(&mut st, &end));
        assert!(st.over && st.steps.is_empty() && st.turn.phase == "over");
        assert_eq!(acting_player(&st), None);
        assert_eq!(st.events.last().unwrap().text, "The game is over.");
    }

    #[test]
    fn an_extra_turn_is_the_same_players_in_the_same_round() {
        let mut st = midgame();
        st.extra_turns = vec![1];
        assert!(run_step(&mut st, &step("end_turn", 1, Vec::new())));
        assert_eq!((st.round, st.turn_number, st.current), (6, 19, 1));
        assert!(st.extra_turns.is_empty());
    }

    #[test]
    fn a_spoil_drops_the_work_of_the_phase_it_ends() {
        let mut st = midgame();
        st.steps = vec![step("end_turn", 1, Vec::new())];
        begin_phase(&mut st, "planting");
        st.steps.push(step("prep_step", 1, Vec::new()));
        assert!(run_step(&mut st, &step("spoil", 1, Vec::new())));
        assert!(st.turn.spoiled && st.players[1].mana_token_active);
        let kinds: Vec<&str> = st.steps.iter().map(|s| &*s.kind).collect();
        assert_eq!(kinds, vec!["end_turn", "discard_start"]);
    }
}

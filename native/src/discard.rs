//! Twin of mysticvale/engine/discard.py: the Discard phase: sleeve what was bought,
//! Discard abilities, discard the field, replenish the commons and vale rows, and the
//! end-of-game trigger on the last level-2 vale (German and yucata rules). (The interface option
//! `finish_turn` ends the turn after the Prep phase: `flow::end_of_prep`.)
#![forbid(unsafe_code)]

use std::sync::Arc;

use crate::actions::{Notation, Verb};
use crate::card_types::Trigger;
use crate::flow::{begin_phase, discard_field_keeping, queue_triggered, trigger_items};
use crate::harvest::{fits, layers_of, placement_exists_over, sleeve_layers};
use crate::pyjson::J;
use crate::state::{CardId, Pending, State, Step};
use crate::zones::{ask, card_name, log, schedule, step};

/// The step kinds this module runs.
pub const STEPS: &[&str] = &["discard_start", "sleeve_next", "discard_abilities", "discard_field", "replenish"];
/// The decision kinds this module owns.
pub const DECISIONS: &[&str] = &["sleeve"];

fn step_discard_start(st: &mut State, s: &Step) {
    begin_phase(st, "discard");
    let p = s.player;
    let work = ["sleeve_next", "discard_abilities", "leader_upgrades", "discard_field", "replenish", "prep_start"];
    // "leader_upgrades" is engine/leaders.py's (file 003).
    schedule(st, work.map(|k| step(k, p, Vec::new())));
}

/// Field cards the first unsleeved purchase may go on while the rest still fit (Python's
/// `sleeve_targets`).
pub fn sleeve_targets(st: &State, p: u8) -> Vec<CardId> {
    let Some(pu) = st.turn.purchases.first() else { return Vec::new() };
    if let Some(t) = pu.target {
        return vec![t];
    }
    let Some(pl) = st.players.get(usize::from(p)) else { return Vec::new() };
    let rest = st.turn.purchases.get(1..).unwrap_or_default();
    let mut out = Vec::new();
    for &c in &pl.field {
        let now = layers_of(st, c, None);
        if !fits(st, now, pu.copy) {
            continue;
        }
        let after = sleeve_layers(st, now, pu.copy);
        if placement_exists_over(st, rest, Some((c, &after))) {
            out.push(c);
        }
    }
    out
}

/// Sleeve the first unsleeved purchase on `card` (Python's `sleeve`).
pub fn sleeve(st: &mut State, p: u8, card: CardId) {
    if st.turn.purchases.is_empty() || usize::from(card) >= st.cards.len() {
        return;
    }
    let pu = st.turn.purchases.remove(0);
    let before = Arc::clone(&st.cards[usize::from(card)]);
    let name = card_name(st, card);
    let after = sleeve_layers(st, &before, pu.copy);
    // An eclipse slid under the others is layer 0 and the layers above it shift up by one.
    let slid_under = after.len() > 1 && after.get(1..) == Some(&before[..]);
    let pos = if slid_under { 0 } else { after.len() - 1 };
    Arc::make_mut(&mut st.cards)[usize::from(card)] = after.into();
    let t = &mut st.turn;
    if slid_under {
        for cl in &mut t.new_layers {
            if cl[0] == i64::from(card) {
                cl[1] += 1;
            }
        }
    }
    t.new_layers.push([i64::from(card), i64::try_from(pos).unwrap_or(0)]);
    let text = format!("Player {} sleeves {} on {name}.", u16::from(p) + 1, st.cat.label(pu.copy));
    log(st, "sleeve", Some(p), text, Vec::new());
}

/// Sleeve each bought advancement on a field card (never the on-deck card).
fn step_sleeve_next(st: &mut State, s: &Step) {
    let Some(pu) = st.turn.purchases.first().copied() else { return };
    let targets = sleeve_targets(st, s.player);
    if let [only] = targets[..] {
        sleeve(st, s.player, only);
        schedule(st, [step("sleeve_next", s.player, Vec::new())]);
    } else {
        ask(st, "sleeve", s.player, Vec::new(), vec![("copy".into(), J::Int(i64::from(pu.copy)))]);
    }
}

fn sleeve_apply(st: &mut State, pd: &Pending, action: &Notation) {
    let Some(card) = action.args.first().and_then(|a| a.strip_prefix('#')).and_then(|a| a.parse::<CardId>().ok())
    else {
        return;
    };
    sleeve(st, pd.player, card);
    schedule(st, [step("sleeve_next", pd.player, Vec::new())]);
}

/// Fill the empty places of `row` from the level-`level` deck, falling back to the next
/// level up to `top` (`decks[0]` is level 1); returns the level each card came from.
fn refill<T: Copy>(row: &mut [Option<T>], decks: &mut [Vec<T>], level: usize, top: usize) -> Vec<usize> {
    let mut drawn = Vec::new();
    for place in row.iter_mut().filter(|c| c.is_none()) {
        for src in level..=top {
            if let Some(c) = decks.get_mut(src - 1).and_then(Vec::pop) {
                *place = Some(c);
                drawn.push(src);
                break;
            }
        }
    }
    drawn
}

/// Refill the commons: level 1 falls back to level 2, level 2 to level 3; level-1 vales
/// fall back to level 2 (file 000).
fn step_replenish(st: &mut State) {
    for (level, row) in (1..=3).zip(st.commons.iter_mut()) {
        refill(row, &mut st.adv_decks, level, 3);
    }
    for level in 1..=2 {
        let Some(row) = st.vale_rows.get_mut(level - 1) else { continue };
        let drawn = refill(row, &mut st.vale_decks, level, 2);
        if drawn.contains(&2)
            && st.vale_decks[1].is_empty()
            && st.ruleset.end_on_last_level2_vale
            && st.end_triggered.is_none()
        {
            st.end_triggered = Some("last_level2_vale".into());
            let text = "The last level-2 vale enters the commons: the game ends after this round.".to_owned();
            log(st, "end_triggered", None, text, Vec::new());
        }
    }
}

/// Run a step of one of [`STEPS`] (false: not this module's kind).
pub fn run_step(st: &mut State, s: &Step) -> bool {
    match &*s.kind {
        "discard_start" => step_discard_start(st, s),
        "sleeve_next" => step_sleeve_next(st, s),
        "discard_abilities" => {
            let field = st.players.get(usize::from(s.player)).map(|pl| pl.field.clone()).unwrap_or_default();
            let items = trigger_items(st, &field, Trigger::Discard);
            queue_triggered(st, s.player, items);
        }
        // Put the field in the discard pile (not the on-deck card); cards an ability keeps
        // stay as the first cards of the next field, in the order they were kept.
        "discard_field" => discard_field_keeping(st, s.player),
        "replenish" => step_replenish(st),
        _ => return false,
    }
    true
}

/// The legal actions of one of [`DECISIONS`], in Python's order.
pub fn legal(st: &State, pd: &Pending) -> Option<Vec<Notation>> {
    if &*pd.kind != "sleeve" {
        return None;
    }
    let targets = sleeve_targets(st, pd.player);
    Some(
        targets
            .into_iter()
            .map(|c| Notation { verb: Verb::Sleeve, args: vec![crate::actions::card_word(c)] })
            .collect(),
    )
}

/// Apply a legal action to one of [`DECISIONS`] (already popped); the decision back when it
/// is not this module's.
pub fn apply(st: &mut State, pd: Pending, action: &Notation) -> Option<Pending> {
    if &*pd.kind != "sleeve" {
        return Some(pd);
    }
    sleeve_apply(st, &pd, action);
    None
}

/// What other seats read while one of [`DECISIONS`] is open.
pub fn describe(_st: &State, pd: &Pending) -> Option<String> {
    (&*pd.kind == "sleeve").then(|| "sleeving an advancement".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::get_ruleset;

    use crate::testing::midgame;

    #[test]
    fn the_last_level2_vale_ends_the_game_under_the_german_and_yucata_rules() {
        for (rules, ends) in [("german", true), ("yucata", true), ("english", false)] {
            let mut st = midgame();
            st.ruleset = get_ruleset(rules).unwrap();
            st.vale_rows[0][2] = None;
            st.vale_decks[0].clear();
            st.vale_decks[1].truncate(1);
            let last = st.vale_decks[1][0];
            assert!(run_step(&mut st, &step("replenish", 1, Vec::new())));
            assert_eq!(st.vale_rows[0][2], Some(last), "level 1 falls back to level 2");
            assert_eq!(st.end_triggered.as_deref() == Some("last_level2_vale"), ends, "{rules}");
        }
    }

    #[test]
    fn refill_falls_back_to_the_next_level() {
        let mut row = [Some(1u16), None, None];
        let mut decks = vec![vec![10u16], vec![20, 21], vec![30]];
        let drawn = refill(&mut row, &mut decks, 1, 3);
        assert_eq!(row, [Some(1), Some(10), Some(21)]);
        assert_eq!(drawn, vec![1, 2]);
        let mut row = [None, None, None];
        let drawn = refill(&mut row, &mut decks, 2, 3);
        assert_eq!(row, [Some(20), Some(30), None]);
        assert_eq!(drawn, vec![2, 3]);
    }
}

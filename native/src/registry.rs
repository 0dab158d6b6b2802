//! Twin of mysticvale/engine/registry.py: where each kind of rules step, pending decision
//! and ability effect is handled.
//!
//! Python registers handlers with decorators; here every rules module offers the same five
//! entry points, and this module asks them in turn:
//!
//! * `STEPS` / `DECISIONS`: the kinds it handles (their union is [`STEP_KINDS`] and
//!   [`DECISION_KINDS`]; the `every_kind_has_one_handler` test checks it);
//! * `run_step(st, &step) -> bool`: run a step of one of its kinds (false: not its kind);
//! * `legal(st, &pending) -> Option<Vec<Notation>>`: a decision's legal actions, in
//!   Python's order;
//! * `apply(st, pending, &action) -> Option<Pending>`: apply a legal action to one of its
//!   decisions (the decision is already popped, as in Python); gives the decision back when
//!   it is not its kind;
//! * `describe(st, &pending) -> Option<String>`: what other seats read while it is open.
//!
//! Effects modules also offer `resolve(st, p, ability, &data) -> bool` (the effect's
//! handler; false: not its effect) and `usable(st, p, ability, &data) -> Option<bool>`
//! (Python's `effects.base.usable` checks).
#![forbid(unsafe_code)]

use crate::actions::Notation;
use crate::card_types::Ability;
use crate::state::{Pending, State, Step};
#[cfg(test)]
use crate::state::{DECISION_KINDS, STEP_KINDS};
use crate::zones::Data;
use crate::{discard, effects, flow, harvest, leaders};

/// Run one step (Python's `STEPS[s.kind](st, s)`). A kind no module handles cannot happen:
/// saves naming an unknown kind are refused at load.
pub fn run_step(st: &mut State, s: &Step) {
    let _ = flow::run_step(st, s)
        || harvest::run_step(st, s)
        || discard::run_step(st, s)
        || leaders::run_step(st, s)
        || effects::run_step(st, s);
}

/// A decision's legal actions (Python's `DECISIONS[pd.kind].legal(st, pd)`).
pub fn legal(st: &State, pd: &Pending) -> Vec<Notation> {
    flow::legal(st, pd)
        .or_else(|| discard::legal(st, pd))
        .or_else(|| leaders::legal(st, pd))
        .or_else(|| effects::legal(st, pd))
        .unwrap_or_default()
}

/// Apply a legal action to a decision already popped (Python's `DECISIONS[pd.kind].apply`).
pub fn apply(st: &mut State, pd: Pending, action: &Notation) {
    let Some(pd) = flow::apply(st, pd, action) else { return };
    let Some(pd) = discard::apply(st, pd, action) else { return };
    let Some(pd) = leaders::apply(st, pd, action) else { return };
    let _ = effects::apply(st, pd, action);
}

/// What the other seats read while a decision is open (Python's `describe`; `None` when
/// the decision registers no text).
pub fn describe(st: &State, pd: &Pending) -> Option<String> {
    flow::describe(st, pd)
        .or_else(|| discard::describe(st, pd))
        .or_else(|| leaders::describe(st, pd))
        .or_else(|| effects::describe(st, pd))
}

/// Resolve an ability's effect (Python's `EFFECTS[ab.effect].handler`); passive effects
/// have no handler and do nothing here.
pub fn resolve(st: &mut State, p: u8, ab: &Ability, d: &Data) {
    let _ = effects::resolve(st, p, ab, d) || leaders::resolve(st, p, ab, d);
}

/// Would using this ability now do anything the player may want (Python's
/// `effects.base.usable`)?
pub fn usable(st: &State, p: u8, ab: &Ability, d: &Data) -> bool {
    effects::usable(st, p, ab, d).or_else(|| leaders::usable(st, p, ab, d)).unwrap_or(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn union(lists: &[&[&str]]) -> Vec<String> {
        let mut out: Vec<String> = lists.iter().flat_map(|l| l.iter().map(|s| s.to_string())).collect();
        out.sort();
        out
    }

    #[test]
    fn every_kind_has_one_handler() {
        let steps = union(&[
            flow::STEPS,
            harvest::STEPS,
            discard::STEPS,
            leaders::STEPS,
            effects::base::STEPS,
            effects::vale_of_magic::STEPS,
            effects::twilight_garden::STEPS,
        ]);
        let decisions = union(&[
            flow::DECISIONS,
            discard::DECISIONS,
            leaders::DECISIONS,
            effects::base::DECISIONS,
            effects::vale_of_magic::DECISIONS,
            effects::twilight_garden::DECISIONS,
        ]);
        assert_eq!(steps, STEP_KINDS.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(decisions, DECISION_KINDS.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    }
}

//! Twin of mysticvale/engine/effects/: the ability vocabulary's handlers, one module per
//! set (`base`, `vale_of_magic`, `twilight_garden`), asked in turn as `registry` explains.
#![forbid(unsafe_code)]

pub mod base;
pub mod twilight_garden;
pub mod vale_of_magic;

use crate::actions::Notation;
use crate::card_types::Ability;
use crate::state::{Pending, State, Step};
use crate::zones::Data;

/// Run a step of an effects module.
pub fn run_step(st: &mut State, s: &Step) -> bool {
    base::run_step(st, s) || vale_of_magic::run_step(st, s) || twilight_garden::run_step(st, s)
}

/// A decision's legal actions, if an effects module owns it.
pub fn legal(st: &State, pd: &Pending) -> Option<Vec<Notation>> {
    base::legal(st, pd).or_else(|| vale_of_magic::legal(st, pd)).or_else(|| twilight_garden::legal(st, pd))
}

/// Apply an action to a decision an effects module owns (the decision back otherwise).
pub fn apply(st: &mut State, pd: Pending, action: &Notation) -> Option<Pending> {
    let pd = base::apply(st, pd, action)?;
    let pd = vale_of_magic::apply(st, pd, action)?;
    twilight_garden::apply(st, pd, action)
}

/// What others read while an effects module's decision is open.
pub fn describe(st: &State, pd: &Pending) -> Option<String> {
    base::describe(st, pd).or_else(|| vale_of_magic::describe(st, pd)).or_else(|| twilight_garden::describe(st, pd))
}

/// Resolve an effect an effects module owns.
pub fn resolve(st: &mut State, p: u8, ab: &Ability, d: &Data) -> bool {
    base::resolve(st, p, ab, d) || vale_of_magic::resolve(st, p, ab, d) || twilight_garden::resolve(st, p, ab, d)
}

/// Python's `usable` check of an effect, if an effects module has one.
pub fn usable(st: &State, p: u8, ab: &Ability, d: &Data) -> Option<bool> {
    base::usable(st, p, ab, d)
        .or_else(|| vale_of_magic::usable(st, p, ab, d))
        .or_else(|| twilight_garden::usable(st, p, ab, d))
}

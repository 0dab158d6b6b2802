//! What the unit tests share: the fixtures `scripts/native_fixtures.py` writes from the
//! Python engine into `native/tests/fixtures/`.
#![cfg(test)]
#![allow(clippy::unwrap_used)]

use crate::catalogue::Catalogue;
use crate::serialize::loads;
use crate::state::State;

/// A fixture file's text.
pub fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// The mid-game save of the fixtures: a base game of 3 players, round 6, player 2 (seat 1)
/// to act, player 3 (seat 2) holding the star.
pub fn midgame() -> State {
    let cat = Catalogue::shared(&fixture("catalogue_base.json"), "base").unwrap();
    loads(cat, &fixture("save_base_midgame.json")).unwrap()
}

//! The native set-up with leaders against the Python engine's (scripts/native_fixtures.py,
//! `leader_setups.json`): `new_game(..., leaders=True)` saves byte for byte, leaders dealt and
//! the first choice open; leaders without Twilight Garden refused with Python's message.

use std::sync::Arc;

use _native::leaders::new_state_with_leaders;
use _native::rulesets::get_ruleset;
use _native::{flow, serialize, Catalogue, Seed};
use serde::Deserialize;

#[derive(Deserialize)]
struct Fixture {
    cases: Vec<Case>,
    refused: Vec<Refused>,
}

#[derive(Deserialize)]
struct Case {
    sets: String,
    players: u8,
    ruleset: String,
    seed: String,
    finish_turn: bool,
    save: String,
}

#[derive(Deserialize)]
struct Refused {
    sets: String,
    players: u8,
    seed: String,
    message: String,
}

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e} (run scripts/native_fixtures.py)"))
}

fn catalogue(sets: &str) -> Arc<Catalogue> {
    Catalogue::shared(&fixture(&format!("catalogue_{sets}.json")), sets).expect("the fixture's catalogue loads")
}

fn cases() -> Fixture {
    serde_json::from_str(&fixture("leader_setups.json")).expect("leader_setups.json is a fixture")
}

#[test]
fn a_game_with_leaders_is_set_up_as_pythons() {
    let fx = cases();
    assert!(fx.cases.len() >= 18);
    for c in &fx.cases {
        let seed = Seed::parse(&c.seed).expect("a seed");
        let rs = get_ruleset(&c.ruleset).expect("a rule set");
        let mut st = new_state_with_leaders(catalogue(&c.sets), rs, c.players, seed, c.finish_turn)
            .unwrap_or_else(|e| panic!("{} {}p: {e}", c.sets, c.players));
        flow::run(&mut st);
        assert_eq!(st.pending.len(), 1, "the first leader choice is open");
        assert_eq!(serialize::dumps(&st), c.save, "{} {}p {} seed {}", c.sets, c.players, c.ruleset, c.seed);
    }
}

#[test]
fn leaders_without_twilight_garden_are_refused_with_pythons_message() {
    for r in cases().refused {
        let seed = Seed::parse(&r.seed).expect("a seed");
        let rs = get_ruleset("yucata").expect("yucata");
        let err = new_state_with_leaders(catalogue(&r.sets), rs, r.players, seed, false).err();
        assert_eq!(err.as_deref(), Some(r.message.as_str()));
    }
}

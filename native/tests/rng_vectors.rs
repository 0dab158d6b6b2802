//! The native RNG against vectors the Python engine wrote (scripts/native_fixtures.py).

use _native::rng::derive_seed;
use _native::{Rng, Seed, Stream};
use serde::Deserialize;

#[derive(Deserialize)]
struct Vectors {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    seed: String,
    streams: Vec<StreamCase>,
    below: Vec<BelowCase>,
    shuffles: Vec<ShuffleCase>,
    states: Vec<(String, u64)>,
}

#[derive(Deserialize)]
struct StreamCase {
    name: String,
    derived: u64,
    draws: Vec<u64>,
}

#[derive(Deserialize)]
struct BelowCase {
    n: u64,
    value: u64,
}

#[derive(Deserialize)]
struct ShuffleCase {
    size: usize,
    order: Vec<usize>,
}

fn vectors() -> Vectors {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/rng_vectors.json");
    let text = std::fs::read_to_string(path).expect("the fixture exists (scripts/native_fixtures.py)");
    serde_json::from_str(&text).expect("the fixture is valid")
}

#[test]
fn every_case_draws_as_python() {
    let v = vectors();
    assert!(v.cases.len() >= 8);
    for case in &v.cases {
        let seed = Seed::parse(&case.seed).expect("a canonical seed");
        let mut rng = Rng::new(seed);
        for s in &case.streams {
            assert_eq!(derive_seed(&case.seed, &s.name), s.derived, "seed {} stream {}", case.seed, s.name);
            let stream = Stream::from_name(&s.name);
            let draws: Vec<u64> = (0..s.draws.len()).map(|_| rng.next_u64(&stream)).collect();
            assert_eq!(draws, s.draws, "seed {} stream {}", case.seed, s.name);
        }
        for b in &case.below {
            assert_eq!(rng.below(&Stream::Setup, b.n), b.value, "seed {} below({})", case.seed, b.n);
        }
        for sh in &case.shuffles {
            let mut items: Vec<usize> = (0..sh.size).collect();
            rng.shuffle(&Stream::Deck(1), &mut items);
            assert_eq!(items, sh.order, "seed {} shuffle of {}", case.seed, sh.size);
        }
        assert_eq!(rng.sorted_states(), case.states, "seed {} states", case.seed);
    }
}

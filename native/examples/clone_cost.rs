//! The cost of `State::clone()` and `determinize()` on a mid-game position, without Python:
//! for instruction counts under `valgrind --tool=callgrind`, which the machines' load does not
//! change (issue 19's floors: clone 0.5 µs, determinize 2 µs).
//!
//!     cargo build --release --example clone_cost
//!     valgrind --tool=callgrind target/release/examples/clone_cost 0 16 clone
//!     valgrind --tool=callgrind target/release/examples/clone_cost 2000 16 clone
//!
//! Plays a seeded random 2-player base game to the first decision of turn `TURN` (16 unless
//! given), then clones the state N times (`clone`), or determinizes it N times from the
//! mover's view (`determinize`), or both (the default), each copy dropped again. The
//! difference of two runs' instruction counts over the difference of their N is the cost of
//! one copy and its drop; the printed microseconds are each one's wall time.
#![forbid(unsafe_code)]

use std::hint::black_box;

use _native::determinize::determinize;
use _native::flow::{acting_player, apply_action, legal_for_phase};
use _native::rng::{Rng, Stream};
use _native::rulesets::get_ruleset;
use _native::setup::new_state;
use _native::{Catalogue, Seed};

fn main() -> Result<(), String> {
    let n: u32 = match std::env::args().nth(1) {
        Some(n) => n.parse().map_err(|e| format!("the number of copies {n:?}: {e}"))?,
        None => 1000,
    };
    let turn: i64 = match std::env::args().nth(2) {
        Some(t) => t.parse().map_err(|e| format!("the turn {t:?}: {e}"))?,
        None => 16,
    };
    let path = format!("{}/tests/fixtures/catalogue_base.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let cat = Catalogue::shared(&text, "base").map_err(|e| format!("{e:?}"))?;
    let mut st = new_state(cat, get_ruleset("yucata")?, 2, Seed::from(5), true)?;
    let mut chooser = Rng::new(Seed::from(6));
    let stream = Stream::from_name("random");
    while !st.over && st.turn_number < turn {
        let legal = legal_for_phase(&st);
        let k = chooser.below(&stream, legal.len() as u64) as usize;
        apply_action(&mut st, &legal[k]);
    }
    let seat = acting_player(&st).ok_or("no seat acts")?;
    let mode = std::env::args().nth(3).unwrap_or_else(|| "both".to_owned());
    let (clones, dets) = match mode.as_str() {
        "clone" => (n, 0),
        "determinize" => (0, n),
        "both" => (n, n),
        _ => return Err(format!("the mode {mode:?}: clone, determinize or both")),
    };
    let t0 = std::time::Instant::now();
    for _ in 0..clones {
        black_box(black_box(&st).clone());
    }
    let clone_s = t0.elapsed().as_secs_f64();
    let mut rng = Rng::new(Seed::from(7));
    let det = Stream::from_name("determinize");
    let t1 = std::time::Instant::now();
    for _ in 0..dets {
        black_box(determinize(black_box(&st), Some(seat), &mut rng, &det));
    }
    let det_s = t1.elapsed().as_secs_f64();
    let per = |s: f64, k: u32| if k == 0 { 0.0 } else { s / f64::from(k) * 1e6 };
    println!(
        "turn {} events {} history {} clone {:.3} us determinize {:.3} us",
        st.turn_number,
        st.events.len(),
        st.history.len(),
        per(clone_s, clones),
        per(det_s, dets)
    );
    Ok(())
}

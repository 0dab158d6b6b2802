//! The engine alone: greedy-vs-greedy 2-player base games played by the native batch, then
//! replayed from their action lists by the engine (`game::new_game`, then for every action
//! `flow::legal_for_phase` and `game::apply_action`, which checks it among them), as
//! `benchmarks/bench_engine.py` replays them in Python. The replays are timed; the actions
//! are parsed beforehand, as the Python benchmark parses them into `Action` values.
//!
//!     cargo build --release --example replay
//!     target/release/examples/replay 200 [REPEATS]
//!     valgrind --tool=callgrind target/release/examples/replay 200 0     # the replays' instructions: less `replay 200 0` with 0 ...
//!
//! `REPEATS` (default 5): how many times the whole set is replayed (the best time is printed);
//! 0 replays nothing (for instruction counts: the difference of `N 1` and `N 0` is one replay
//! of the N games). Prints games, decisions, seconds, games/s and a digest of the replayed
//! games' ends (scores and history), which a change for speed must leave as it was.
#![forbid(unsafe_code)]

use _native::actions::Notation;
use _native::bots::batch::{play_games, Arena, MAX_ROUNDS};
use _native::rulesets::get_ruleset;
use _native::{Catalogue, Seed};

fn main() -> Result<(), String> {
    let arg = |k: usize, default: u64| -> Result<u64, String> {
        std::env::args().nth(k).map_or(Ok(default), |n| n.parse().map_err(|e| format!("argument {k} {n:?}: {e}")))
    };
    let games = arg(1, 200)?;
    let repeats = arg(2, 5)?;
    let path = format!("{}/tests/fixtures/catalogue_base.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let cat = Catalogue::shared(&text, "base").map_err(|e| format!("{e:?}"))?;
    let ruleset = get_ruleset("yucata")?;
    let specs = vec!["greedy".to_owned(); 2];
    let arena = Arena::new(cat.clone(), ruleset, 2, Seed::from(1), specs, MAX_ROUNDS)?;
    let indices: Vec<u64> = (0..games).collect();
    let records = play_games(&arena, &indices)?;
    let parsed: Vec<(u64, Vec<Notation>)> = records
        .iter()
        .map(|r| {
            Ok((
                r.seed,
                r.history
                    .iter()
                    .map(|a| a.parse::<Notation>().map_err(|e| format!("{a}: {e:?}")))
                    .collect::<Result<_, String>>()?,
            ))
        })
        .collect::<Result<_, String>>()?;
    let decisions: usize = parsed.iter().map(|(_, h)| h.len()).sum();
    let mut best = f64::INFINITY;
    let mut digest: u64 = 0xcbf2_9ce4_8422_2325;
    for _ in 0..repeats {
        let t0 = std::time::Instant::now();
        let mut ends = Vec::with_capacity(parsed.len());
        for (seed, actions) in &parsed {
            let mut st = _native::game::new_game(cat.clone(), ruleset, 2, Seed::from(*seed), false, false)?;
            for a in actions {
                let legal = _native::flow::legal_for_phase(&st);
                _native::game::apply_action(&mut st, a, &legal)?;
            }
            ends.push(st);
        }
        best = best.min(t0.elapsed().as_secs_f64());
        // A digest of every replay's end (FNV-1a over its scores and history).
        digest = 0xcbf2_9ce4_8422_2325;
        for st in &ends {
            if !st.over {
                return Err("a replay did not end the game".to_owned());
            }
            let scores = format!("{:?}", _native::scoring::scores(st));
            for part in st.history.iter().map(|h| &**h).chain([scores.as_str()]) {
                for b in part.bytes().chain([0]) {
                    digest = (digest ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
                }
            }
        }
    }
    if repeats > 0 {
        println!(
            "games {games} decisions {decisions} seconds {best:.4} games/s {:.1} digest {digest:016x}",
            games as f64 / best
        );
    }
    Ok(())
}

//! Random-vs-random (or any native bot's) 2-player base games played by the native batch (`bots::batch`), without
//! Python: for instruction counts under `valgrind --tool=callgrind`, which the machines'
//! load does not change.
//!
//!     cargo build --release --example batch
//!     valgrind --tool=callgrind target/release/examples/batch 100 [SETS] [PLAYERS] [BOT]
//!
//! (`cargo build --profile profiling --example batch` gives the same code with line tables,
//! for `callgrind_annotate`.) The catalogue is a set list's table in `tests/fixtures/`
//! (`SETS`: `base`, the default, `base+vale_of_magic`, `base+twilight_garden` or all three
//! joined by `+`; `PLAYERS`: 2 unless given; `BOT`: every seat's bot spec, `random` unless
//! given, e.g. `greedy` or `greedy:depth=1`; the tables are written by
//! `scripts/native_fixtures.py`). Prints the games, their decisions, the seconds and a digest
//! of the games' actions and scores (which a change for speed must leave as it was).
#![forbid(unsafe_code)]

use _native::bots::batch::{play_games, Arena, MAX_ROUNDS};
use _native::rulesets::get_ruleset;
use _native::{Catalogue, Seed};

fn main() -> Result<(), String> {
    let games: u64 = match std::env::args().nth(1) {
        Some(n) => n.parse().map_err(|e| format!("the number of games {n:?}: {e}"))?,
        None => 100,
    };
    // The set list (a fixture's name: `base`, `base+vale_of_magic+twilight_garden`, ...) and
    // the number of players.
    let sets = std::env::args().nth(2).unwrap_or_else(|| "base".to_owned());
    let players: u8 = match std::env::args().nth(3) {
        Some(n) => n.parse().map_err(|e| format!("the number of players {n:?}: {e}"))?,
        None => 2,
    };
    let path = format!("{}/tests/fixtures/catalogue_{sets}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let cat = Catalogue::shared(&text, &sets).map_err(|e| format!("{e:?}"))?;
    let spec = std::env::args().nth(4).unwrap_or_else(|| "random".to_owned());
    let specs = vec![spec; usize::from(players)];
    let arena = Arena::new(cat, get_ruleset("yucata")?, players, Seed::from(1), specs, MAX_ROUNDS)?;
    let indices: Vec<u64> = (0..games).collect();
    let t0 = std::time::Instant::now();
    let records = play_games(&arena, &indices)?;
    let seconds = t0.elapsed().as_secs_f64();
    let decisions: u64 = records.iter().map(|r| r.decisions.iter().sum::<u64>()).sum();
    // A digest of every game's actions and scores (FNV-1a): a change to the engine's speed
    // must leave it as it was.
    let mut digest: u64 = 0xcbf2_9ce4_8422_2325;
    for r in &records {
        let scores = format!("{:?}", r.scores);
        for part in r.history.iter().map(|h| &**h).chain([scores.as_str()]) {
            for b in part.bytes().chain([0]) {
                digest = (digest ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
            }
        }
    }
    println!(
        "games {games} decisions {decisions} seconds {seconds:.3} games/s {:.1} digest {digest:016x}",
        games as f64 / seconds
    );
    Ok(())
}

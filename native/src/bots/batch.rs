//! Twin of mysticvale/bots/arena.py's `play_game` (and its seeds, labels and seat
//! rotation) for the bots the native core has: whole seeded games played without returning
//! to Python for each decision, each giving the record the Python arena gives.
//!
//! Game `i` of an arena run with `seed` gets its own seed derived from the arena seed and
//! `i`, and each bot its own seed derived from the game seed and its seat, so a game's
//! result does not depend on which process or batch played it. Seats rotate: in game `i`
//! seat `s` is played by entry `(s + i) % players` of the bot list. A game that reaches
//! `max_rounds` is stopped and scored as it stands, and counted as unfinished (the rules
//! have no such limit; it guards against a stalemate the rules do not end).
#![forbid(unsafe_code)]

use std::sync::Arc;
use std::time::Instant;

use super::{make_bot, Bot, SeatView};
use crate::catalogue::Catalogue;
use crate::rng::{derive_seed, Seed};
use crate::rulesets::RuleSet;
use crate::state::State;

/// Game and bot seeds are cut to 62 bits (Python's `_SEED_MASK`).
pub const SEED_MASK: u64 = (1 << 62) - 1;

/// The arena's default round limit (Python's `MAX_ROUNDS`).
pub const MAX_ROUNDS: i64 = 100;

/// The seed of game `i` of an arena run with `seed` (Python's `game_seed`).
pub fn game_seed(seed: &Seed, i: u64) -> u64 {
    derive_seed(seed.as_str(), &format!("arena.game{i}")) & SEED_MASK
}

/// The seed of the bot in seat `seat` of a game with seed `game_seed`.
pub fn bot_seed(game_seed: u64, seat: usize) -> u64 {
    derive_seed(&game_seed.to_string(), &format!("bot{seat}")) & SEED_MASK
}

/// Result labels: the bot spec, with `#1`, `#2` ... when a spec appears more than once
/// (Python's `labels_for`).
pub fn labels_for<S: AsRef<str>>(specs: &[S]) -> Vec<String> {
    specs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let s = s.as_ref();
            let count = |list: &[S]| list.iter().filter(|t| t.as_ref() == s).count();
            if count(specs) > 1 {
                format!("{s}#{}", count(specs.get(..i).unwrap_or_default()) + 1)
            } else {
                s.to_owned()
            }
        })
        .collect()
}

/// The options of an arena run that every one of its games shares.
pub struct Arena {
    catalogue: Arc<Catalogue>,
    ruleset: &'static RuleSet,
    players: u8,
    seed: Seed,
    specs: Vec<String>,
    labels: Vec<String>,
    max_rounds: i64,
    leaders: bool,
}

impl Arena {
    /// An arena run: `specs` names the bot of each entry (one per seat, each a bot the
    /// native core has), `seed` is the arena seed. `Err` says what is wrong: a bot the
    /// native core does not have, or not one bot per seat.
    pub fn new(
        catalogue: Arc<Catalogue>,
        ruleset: &'static RuleSet,
        players: u8,
        seed: Seed,
        specs: Vec<String>,
        max_rounds: i64,
    ) -> Result<Arena, String> {
        if !(2..=4).contains(&players) {
            return Err(format!("players must be 2 to 4, not {players}"));
        }
        if specs.len() != usize::from(players) {
            return Err(format!("{} bots named for {players} seats: name one per seat", specs.len()));
        }
        if max_rounds < 1 {
            return Err("max_rounds must be at least 1".to_owned());
        }
        for s in &specs {
            make_bot(s, Seed::from(0))?;
        }
        let labels = labels_for(&specs);
        Ok(Arena { catalogue, ruleset, players, seed, specs, labels, max_rounds, leaders: false })
    }

    /// The same run with the Twilight Garden leaders (each player first chooses one of two
    /// dealt leaders, a decision the bots make), or without them (the default).
    #[must_use]
    pub fn with_leaders(mut self, leaders: bool) -> Arena {
        self.leaders = leaders;
        self
    }

    /// Each entry's label, in the order of the bot list.
    pub fn labels(&self) -> &[String] {
        &self.labels
    }
}

/// One game's record, as Python's `play_game` returns it (`history` besides: the actions
/// played, in notation).
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The game's number in the arena run.
    pub game: u64,
    /// The game's seed.
    pub seed: u64,
    /// The label of the bot in each seat.
    pub seats: Vec<String>,
    /// Each seat's score.
    pub scores: Vec<i64>,
    /// The labels of the winners.
    pub winners: Vec<String>,
    /// The round the game ended in (or was stopped in).
    pub rounds: i64,
    /// Stopped at the round limit.
    pub unfinished: bool,
    /// The decisions each seat made.
    pub decisions: Vec<u64>,
    /// The seconds each seat's bot spent choosing (its legal actions included, as the
    /// Python bot asks its view for them).
    pub bot_seconds: Vec<f64>,
    /// Every action played, as notation.
    pub history: Vec<Box<str>>,
}

/// Play game `i` of `arena` to the end (or to its round limit) and return its record; `Err`
/// for a bot asked to act with nothing to do or choosing no legal action (a bug).
pub fn play_game(arena: &Arena, i: u64) -> Result<Record, String> {
    let players = usize::from(arena.players);
    let gseed = game_seed(&arena.seed, i);
    let mut st = crate::game::new_game(
        arena.catalogue.clone(),
        arena.ruleset,
        arena.players,
        Seed::from(gseed),
        arena.leaders,
        false,
    )?;
    // seat -> entry index; i % players first, so a large i cannot overflow.
    let shift = usize::try_from(i % players as u64).unwrap_or_default();
    let entry: Vec<usize> = (0..players).map(|s| (s + shift) % players).collect();
    let mut bots: Vec<Box<dyn Bot>> = Vec::with_capacity(players);
    for (s, &e) in entry.iter().enumerate() {
        let spec = arena.specs.get(e).map_or("", String::as_str);
        bots.push(make_bot(spec, Seed::from(bot_seed(gseed, s)))?);
    }
    let mut decisions = vec![0u64; players];
    let mut spent = vec![0f64; players];
    let unfinished = play_out(&mut st, &mut bots, arena.max_rounds, &mut decisions, &mut spent)?;
    let label = |seat: usize| entry.get(seat).and_then(|&e| arena.labels.get(e)).cloned().unwrap_or_default();
    let winners = crate::scoring::winners(&st);
    Ok(Record {
        game: i,
        seed: gseed,
        seats: (0..players).map(label).collect(),
        scores: crate::scoring::scores(&st),
        winners: winners.into_iter().map(|w| label(usize::from(w))).collect(),
        rounds: st.round,
        unfinished,
        decisions,
        bot_seconds: spent,
        history: std::mem::take(&mut st.history).into_vec(),
    })
}

/// Let the bots play `st` until it is over or its round passes `max_rounds`; true when the
/// round limit stopped it.
fn play_out(
    st: &mut State,
    bots: &mut [Box<dyn Bot>],
    max_rounds: i64,
    decisions: &mut [u64],
    spent: &mut [f64],
) -> Result<bool, String> {
    while !st.over {
        if st.round > max_rounds {
            return Ok(true); // a stalemate the rules do not end: score it as it stands
        }
        let Some(p) = crate::flow::acting_player(st) else {
            return Err("no seat is to act in a game that is not over".to_owned());
        };
        let seat = usize::from(p);
        let Some(bot) = bots.get_mut(seat) else {
            return Err(format!("no bot plays seat {seat}"));
        };
        let t0 = Instant::now();
        let legal = crate::flow::legal_for_phase(st);
        let k = bot.act(&SeatView::new(st, p, &legal))?;
        if let Some(t) = spent.get_mut(seat) {
            *t += t0.elapsed().as_secs_f64();
        }
        let Some(action) = legal.get(k) else {
            return Err(format!("the {} bot chose action {k} of {}", bot.name(), legal.len()));
        };
        st.history.push(action.to_string().into());
        crate::flow::apply_action(st, action);
        if let Some(d) = decisions.get_mut(seat) {
            *d += 1;
        }
    }
    Ok(false)
}

/// Play games `indices` of `arena`, one after another, and return their records in that
/// order: the batch, which never returns to Python between decisions.
pub fn play_games(arena: &Arena, indices: &[u64]) -> Result<Vec<Record>, String> {
    indices.iter().map(|&i| play_game(arena, i)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::get_ruleset;

    fn base_arena(players: u8, seed: u64, ruleset: &str, max_rounds: i64) -> Arena {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/catalogue_base.json");
        let text = std::fs::read_to_string(path).unwrap();
        let cat = Catalogue::shared(&text, "base").unwrap();
        let specs = vec!["random".to_owned(); usize::from(players)];
        Arena::new(cat, get_ruleset(ruleset).unwrap(), players, Seed::from(seed), specs, max_rounds).unwrap()
    }

    #[test]
    fn seeds_are_pythons() {
        // Python: game_seed(1, 0), game_seed(1, 7), game_seed(-3, 2), game_seed(2**70, 1)
        assert_eq!(game_seed(&Seed::from(1), 0), 427_767_373_701_325_729);
        assert_eq!(game_seed(&Seed::from(1), 7), 2_862_727_884_723_300_306);
        assert_eq!(game_seed(&Seed::parse("-3").unwrap(), 2), 770_309_878_503_406_047);
        assert_eq!(game_seed(&Seed::parse("1180591620717411303424").unwrap(), 1), 2_649_672_036_911_148_582);
        // Python: [derive_seed(game_seed(1, 0), f"bot{s}") & _SEED_MASK for s in range(3)]
        let g = game_seed(&Seed::from(1), 0);
        let bots: Vec<u64> = (0..3).map(|s| bot_seed(g, s)).collect();
        assert_eq!(bots, [2_801_648_145_867_258_905, 3_020_149_132_127_275_470, 194_815_447_251_723_520]);
    }

    #[test]
    fn labels_number_a_repeated_spec() {
        assert_eq!(labels_for(&["random", "random", "greedy"]), ["random#1", "random#2", "greedy"]);
        assert_eq!(labels_for(&["a", "b"]), ["a", "b"]);
    }

    #[test]
    fn a_game_gives_the_python_arenas_record() {
        // Python: play_game(["random", "random"], 1, i, 2, ("base",), "yucata") for i = 0, 1
        let arena = base_arena(2, 1, "yucata", MAX_ROUNDS);
        let r = play_game(&arena, 0).unwrap();
        assert_eq!((r.game, r.seed), (0, 427_767_373_701_325_729));
        assert_eq!(r.seats, ["random#1", "random#2"]);
        assert_eq!((r.scores.as_slice(), r.winners.as_slice()), (&[27, 54][..], &["random#2".to_owned()][..]));
        assert_eq!((r.rounds, r.unfinished, r.decisions.as_slice()), (43, false, &[147, 177][..]));
        assert_eq!(r.history.len(), 147 + 177);
        let r = play_game(&arena, 1).unwrap();
        assert_eq!(r.seats, ["random#2", "random#1"], "seats rotate");
        assert_eq!((r.scores.as_slice(), r.winners.as_slice()), (&[0, 45][..], &["random#1".to_owned()][..]));
        assert_eq!((r.rounds, r.decisions.as_slice()), (29, &[108, 151][..]));
    }

    #[test]
    fn three_players_rotate_and_score_as_in_python() {
        // Python: play_game(["random"] * 3, 5, 4, 3, ("base",), "german")
        let r = play_game(&base_arena(3, 5, "german", MAX_ROUNDS), 4).unwrap();
        assert_eq!(r.seats, ["random#2", "random#3", "random#1"]);
        assert_eq!(r.scores, [10, 26, 61]);
        assert_eq!(r.winners, ["random#1"]);
        assert_eq!((r.rounds, r.decisions.as_slice()), (26, &[104, 135, 170][..]));
    }

    #[test]
    fn the_round_limit_stops_a_game_and_scores_it_as_it_stands() {
        // Python: play_game(["random", "random"], 1, 0, 2, ("base",), "yucata", max_rounds=2)
        let r = play_game(&base_arena(2, 1, "yucata", 2), 0).unwrap();
        assert!(r.unfinished);
        assert_eq!((r.rounds, r.scores.as_slice(), r.decisions.as_slice()), (3, &[0, 0][..], &[5, 6][..]));
        assert_eq!(r.winners, ["random#1", "random#2"]);
    }

    #[test]
    fn with_leaders_each_player_first_chooses_a_leader() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/catalogue_base+twilight_garden.json");
        let text = std::fs::read_to_string(path).unwrap();
        let cat = Catalogue::shared(&text, "base+twilight_garden").unwrap();
        let specs = vec!["random".to_owned(); 3];
        let arena = |leaders: bool| {
            Arena::new(cat.clone(), get_ruleset("yucata").unwrap(), 3, Seed::from(4), specs.clone(), MAX_ROUNDS)
                .unwrap()
                .with_leaders(leaders)
        };
        let with = play_game(&arena(true), 2).unwrap();
        let chosen = with.history.iter().take_while(|a| a.starts_with("choose ")).count();
        assert_eq!(chosen, 3, "three leader choices first: {:?}", with.history.get(..4));
        let without = play_game(&arena(false), 2).unwrap();
        assert!(!without.history.first().unwrap().starts_with("choose "));
        assert_eq!(with.seed, without.seed, "the same game seed");
    }

    #[test]
    fn a_batch_is_its_games_one_by_one() {
        let arena = base_arena(2, 9, "english", MAX_ROUNDS);
        let batch = play_games(&arena, &[3, 0, 3]).unwrap();
        let strip = |mut r: Record| {
            r.bot_seconds.clear();
            r
        };
        let one = |i| strip(play_game(&arena, i).unwrap());
        let got: Vec<Record> = batch.into_iter().map(strip).collect();
        assert_eq!(got, [one(3), one(0), one(3)]);
    }

    #[test]
    fn an_arena_refuses_what_it_cannot_play() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/catalogue_base.json");
        let cat = Catalogue::shared(&std::fs::read_to_string(path).unwrap(), "base").unwrap();
        let rs = get_ruleset("yucata").unwrap();
        let arena = |players: u8, specs: &[&str], max_rounds: i64| {
            let specs = specs.iter().map(|s| (*s).to_owned()).collect();
            Arena::new(cat.clone(), rs, players, Seed::from(1), specs, max_rounds).err()
        };
        assert_eq!(arena(2, &["random"], 100).as_deref(), Some("1 bots named for 2 seats: name one per seat"));
        assert_eq!(
            arena(2, &["random", "mcts"], 100).as_deref(),
            Some("the native core has no bot 'mcts'; its bots: greedy, ismcts, random")
        );
        assert_eq!(arena(5, &["random"; 5], 100).as_deref(), Some("players must be 2 to 4, not 5"));
        assert_eq!(arena(2, &["random"; 2], 0).as_deref(), Some("max_rounds must be at least 1"));
    }
}

//! Twin of mysticvale/bots/ (so far `base.py`'s `RandomBot` and `arena.py`'s `play_game`):
//! the bots the native core has, and the batch that plays whole games with them without
//! returning to Python for each decision.
//!
//! A bot sees a [`SeatView`]: its seat and the legal actions now (in the Python engine's
//! order), never more than the seat may know. Each bot owns its random stream, seeded at
//! creation, so a bot with the same seed makes the same choices as its Python twin.
#![forbid(unsafe_code)]

pub mod batch;
pub mod greedy;
pub mod ismcts;
pub mod random;
pub mod value_model;
pub mod value_net;

use crate::actions::Notation;
use crate::rng::Seed;
use crate::state::State;

pub use greedy::Greedy;
pub use ismcts::Ismcts;
pub use random::RandomBot;

/// A read-only view of a game from one seat (Python's `SeatView`).
pub struct SeatView<'a> {
    state: &'a State,
    /// The seat this view belongs to.
    pub seat: u8,
    legal: &'a [Notation],
}

impl<'a> SeatView<'a> {
    /// The view of `seat` on `state`, whose legal actions now are `legal`.
    pub fn new(state: &'a State, seat: u8, legal: &'a [Notation]) -> SeatView<'a> {
        SeatView { state, seat, legal }
    }

    /// The legal actions of this seat: none when another seat must act.
    pub fn legal_actions(&self) -> &'a [Notation] {
        if crate::flow::acting_player(self.state) == Some(self.seat) {
            self.legal
        } else {
            &[]
        }
    }

    /// The legal actions of a seat that must decide now; `Err` with Python's bots' message
    /// when it has nothing to do.
    pub fn decision(&self) -> Result<&'a [Notation], String> {
        match self.legal_actions() {
            [] => Err("the bot was asked to act when its seat has nothing to do".to_owned()),
            legal => Ok(legal),
        }
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.state.players.len()
    }
}

/// A player: picks one of the legal actions from what its seat may see (Python's `Bot`).
pub trait Bot: Send {
    /// The bot's name, as `make_bot` knows it.
    fn name(&self) -> &'static str;

    /// The index, in `view.legal_actions()`, of the action the bot plays; `Err` (Python's
    /// `ValueError` message) when the seat has nothing to do.
    fn act(&mut self, view: &SeatView<'_>) -> Result<usize, String>;

    /// The statistics of the last decision of a search bot (none for the others, and
    /// none after a forced move).
    fn last(&self) -> Option<&SearchStats> {
        None
    }
}

/// What a search bot's last decision took (Python's `ISMCTS.last`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Iterations run.
    pub iterations: u64,
    /// Seconds the decision took.
    pub seconds: f64,
    /// The root's children: (action in notation, visits, mean reward), in the order the
    /// search added them.
    pub root: Vec<(String, u64, f64)>,
}

/// Python's message for a spec naming `seed`, which the arena passes itself.
pub(crate) const SEED_TWICE: &str = "mysticvale.bots.make_bot() got multiple values for keyword argument 'seed'";

/// The names of the bots the native core has, sorted.
pub const NATIVE_BOTS: [&str; 3] = [Greedy::NAME, Ismcts::NAME, RandomBot::NAME];

/// A bot by its arena spec with its seed (Python's `parse_bot` then `make_bot(name, seed,
/// **options)`): a name, then options after colons (`greedy:depth=1:spirit_vp=1.6`).
/// `Err` with Python's message for a bad option, and saying which bots the native core has
/// for any other name.
pub fn make_bot(spec: &str, seed: Seed) -> Result<Box<dyn Bot>, String> {
    let parts: Vec<&str> = spec.trim().split(':').map(str::trim).collect();
    let name = parts.first().copied().unwrap_or("");
    if name.is_empty() {
        return Err(format!("empty bot name in {}", crate::errors::py_repr(spec)));
    }
    let opts = parts.get(1..).unwrap_or_default();
    match name {
        RandomBot::NAME if opts.is_empty() => Ok(Box::new(RandomBot::new(seed))),
        RandomBot::NAME => Err(format!(
            "RandomBot.__init__() got an unexpected keyword argument {}",
            crate::errors::py_repr(opts.first().and_then(|o| o.split('=').next()).unwrap_or("").trim())
        )),
        Greedy::NAME => Ok(Box::new(Greedy::new(seed, greedy::Options::parse(opts, spec)?))),
        Ismcts::NAME => Ok(Box::new(Ismcts::new(seed, ismcts::Options::parse(opts, spec)?))),
        _ => Err(format!(
            "the native core has no bot {}; its bots: {}",
            crate::errors::py_repr(name),
            NATIVE_BOTS.join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn make_bot_knows_its_bots_and_names_them_otherwise() {
        assert_eq!(make_bot("random", Seed::from(3)).map(|b| b.name()), Ok("random"));
        assert_eq!(make_bot("greedy:depth=1", Seed::from(3)).map(|b| b.name()), Ok("greedy"));
        assert_eq!(make_bot("ismcts:iterations=40", Seed::from(3)).map(|b| b.name()), Ok("ismcts"));
        let err = make_bot("mcts", Seed::from(3)).err();
        assert_eq!(err.as_deref(), Some("the native core has no bot 'mcts'; its bots: greedy, ismcts, random"));
        let err = make_bot("ismcts:think=0", Seed::from(3)).err();
        assert_eq!(err.as_deref(), Some("give ismcts a budget: think > 0 seconds and/or iterations >= 1"));
        let err = make_bot("greedy:depth=5", Seed::from(3)).err();
        assert_eq!(err.as_deref(), Some("greedy depth must be 1, 2 or 3, not 5"));
    }
}

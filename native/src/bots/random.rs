//! Twin of mysticvale/bots/base.py's `RandomBot`: uniform over the legal actions, from its
//! own seeded stream.
#![forbid(unsafe_code)]

use super::{Bot, SeatView};
use crate::rng::{Rng, Seed, Stream};

/// Uniform over the legal actions, from its own `Rng(seed)` stream `"random"`: one draw of
/// `below(len(legal))` per decision, so it chooses as the Python bot with the same seed.
pub struct RandomBot {
    rng: Rng,
    stream: Stream,
}

impl RandomBot {
    /// The bot's name (`RandomBot.name`).
    pub const NAME: &'static str = "random";

    /// A random bot drawing from `Rng(seed)` (Python's `RandomBot(seed)`).
    pub fn new(seed: Seed) -> RandomBot {
        RandomBot { rng: Rng::new(seed), stream: Stream::from_name("random") }
    }

    /// The index of the next choice among `n` legal actions (`n` >= 1).
    fn choose(&mut self, n: usize) -> usize {
        // A list's length fits u64, and the draw is below it, so it fits usize again.
        self.rng.below(&self.stream, n as u64) as usize
    }
}

impl Bot for RandomBot {
    fn name(&self) -> &'static str {
        Self::NAME
    }

    fn act(&mut self, view: &SeatView<'_>) -> Result<usize, String> {
        let n = view.decision()?.len();
        Ok(self.choose(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_as_the_python_bot_with_the_same_seed() {
        // Python: b = RandomBot(42); [b.rng.below("random", n) for n in (5, 3, 7, 1, 2, 100, 13, 6)]
        let mut bot = RandomBot::new(Seed::from(42));
        let got: Vec<usize> = [5, 3, 7, 1, 2, 100, 13, 6].iter().map(|&n| bot.choose(n)).collect();
        assert_eq!(got, [4, 0, 5, 0, 1, 33, 8, 1]);
    }

    #[test]
    fn one_choice_still_draws() {
        // Python draws even from a list of one, so the stream moves on alike.
        let mut a = RandomBot::new(Seed::from(7));
        let mut b = RandomBot::new(Seed::from(7));
        // Python: a = Rng(7); a.below("random", 1); a.below("random", 1000) -> 731;
        // Rng(7).below("random", 1000) -> 896.
        assert_eq!(a.choose(1), 0);
        assert_eq!(a.choose(1000), 731);
        assert_eq!(b.choose(1000), 896);
    }
}

//! Each seat's score in [0, 1] at the end of an iteration (Python's `ISMCTS._score`): the
//! fitted value model's win chances, the learned value network's, or a logistic of the greedy position value on a scale
//! calibrated to the VP pool left (`calibrated_scale`).
#![forbid(unsafe_code)]

use super::{Ismcts, ValueKind};
use crate::state::State;

/// `calibrated_scale(pool) = SCALE_BASE + SCALE_PER_VP * pool` (Python's constants).
pub const SCALE_BASE: f64 = 3.0;
/// See [`SCALE_BASE`].
pub const SCALE_PER_VP: f64 = 0.6;

/// The VP difference in position value worth about a quarter of a win at this pool.
pub fn calibrated_scale(vp_pool: i64) -> f64 {
    SCALE_BASE + SCALE_PER_VP * vp_pool.max(0) as f64
}

impl Ismcts {
    /// Each seat's score of the sampled game `g` (which the bot may see whole).
    pub(super) fn score(&mut self, g: &State) -> Vec<f64> {
        match self.o.value {
            ValueKind::Model => return self.with_evaluator(|m| m.win_chances(g)),
            ValueKind::Net => {
                // Options::parse read the shipped network before the bot was made.
                if let Ok(net) = crate::bots::value_net::Net::shipped() {
                    return self.with_evaluator(|m| crate::bots::value_net::win_chances(net, m, g));
                }
            }
            ValueKind::Greedy => {}
        }
        let n = g.players.len();
        if g.over {
            return crate::bots::value_model::finished_shares(g);
        }
        let vals: Vec<f64> =
            self.with_evaluator(|m| (0..n as u8).map(|p| m.evaluator().position_value(g, p, false)).collect());
        let scale = self.o.scale.unwrap_or_else(|| calibrated_scale(g.vp_pool));
        (0..n)
            .map(|p| {
                let mut other: Option<f64> = None;
                for (q, &v) in vals.iter().enumerate() {
                    if q != p && other.is_none_or(|o| v > o) {
                        other = Some(v);
                    }
                }
                1.0 / (1.0 + (-(vals[p] - other.unwrap_or(0.0)) / scale).exp())
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_calibrated_scale_is_pythons() {
        assert_eq!(calibrated_scale(23), 3.0 + 0.6 * 23.0);
        assert_eq!(calibrated_scale(-4), 3.0);
    }
}

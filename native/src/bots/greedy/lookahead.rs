//! The greedy bot's general answer (twin of greedy.py's `Greedy.lookahead`): each
//! candidate is tried on `samples` determinized copies, the turn is played on with this
//! bot's own rules until the seat's part is done, and the best average position value
//! wins (by more than 1e-9; the first found at a tie).
#![forbid(unsafe_code)]

use super::harvest::fallback;
use super::Greedy;
use crate::actions::Notation;
use crate::state::State;

/// Decisions played on in one sample before it is scored.
const MAX_STEPS: u32 = 40;

impl Greedy {
    /// The best of `cands` (indices of `legal`) by the lookahead; inside a lookahead the
    /// deterministic [`fallback`] instead.
    pub(super) fn lookahead(&mut self, st: &State, seat: u8, legal: &[Notation], cands: &[usize]) -> usize {
        if self.in_lookahead {
            return fallback(legal, cands);
        }
        let mut best: Option<f64> = None;
        let mut best_a = cands.first().copied().unwrap_or(0);
        self.in_lookahead = true;
        for &a in cands {
            let Some(action) = legal.get(a) else { continue };
            let mut total = 0.0;
            for _ in 0..self.samples {
                let mut g = crate::determinize::determinize(st, Some(seat), &mut self.rng, &self.stream);
                crate::flow::apply_action(&mut g, action);
                let mut steps = 0;
                // Play on with this bot's own rules until the seat's part is done.
                while !g.over && crate::flow::acting_player(&g) == Some(seat) && steps < MAX_STEPS {
                    let lg = crate::flow::legal_for_phase(&g);
                    let k = match lg.len() {
                        0 => break,
                        1 => 0,
                        _ => self.choose(&g, seat, &lg),
                    };
                    let Some(next) = lg.get(k) else { break };
                    crate::flow::apply_action(&mut g, next);
                    steps += 1;
                }
                total += self.position_value(&g, seat, true);
            }
            let v = total / f64::from(self.samples);
            if best.is_none_or(|b| v > b + 1e-9) {
                best = Some(v);
                best_a = a;
            }
        }
        self.in_lookahead = false;
        best_a
    }
}

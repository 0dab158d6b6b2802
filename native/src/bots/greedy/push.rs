//! Push or pass from the exact chance that the next reveal spoils (twin of greedy.py's
//! `_aggregate`, `_groups`, `_draw`, `_last_reveal` and `Greedy._push_rec`).
//!
//! The bot knows the contents of its own deck (not the order), the cards on top whose order
//! it knows, and that an empty deck is refilled by shuffling the discard pile. It looks
//! `depth` reveals ahead over the deck's distinct cards, drawing without replacement.
#![forbid(unsafe_code)]

use std::sync::Arc;

use rustc_hash::FxHashMap as FxMap;

use super::cards::{CardBase, TOKEN_VP};

/// Net decay that spoils (file 000).
pub const SPOIL_AT: i64 = 4;

/// (mana, animal, forest, sky, wild, vp, curse) summed over cards (Python's `_aggregate`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Agg {
    /// Mana (with the abilities' harvest mana).
    pub mana: f64,
    /// Animal, forest, sky, wild, VP, curse.
    pub n: [i64; 6],
}

impl Agg {
    /// Nothing yet.
    pub const ZERO: Agg = Agg { mana: 0.0, n: [0; 6] };

    /// The sum over `cards`.
    pub fn of<'a>(cards: impl IntoIterator<Item = &'a CardBase>) -> Agg {
        let mut a = Agg::ZERO;
        for c in cards {
            a = a.with(c);
        }
        a
    }

    /// With one more card (Python's `_add`).
    pub fn with(self, c: &CardBase) -> Agg {
        let [a, f, s, w] = c.spirits;
        let n = self.n;
        Agg { mana: self.mana + c.mana, n: [n[0] + a, n[1] + f, n[2] + s, n[3] + w, n[4] + c.vp, n[5] + c.curse] }
    }

    /// A memo key (the float by its bits: equal aggregates are equal keys).
    pub fn key(&self) -> (u64, [i64; 6]) {
        (self.mana.to_bits(), self.n)
    }
}

/// The positions in `pool` of each distinct card (by outcome key), the groups in order of
/// their first card (Python's `_groups`).
pub fn groups(pool: &[Arc<CardBase>]) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    for (i, c) in pool.iter().enumerate() {
        match out.iter_mut().find(|g| g.first().is_some_and(|&j| pool[j].same_outcome(c))) {
            Some(g) => g.push(i),
            None => out.push(vec![i]),
        }
    }
    out
}

/// The groups once the first card of group `j` is drawn (Python's `_draw`): that group
/// loses its first position and moves to where its next card stands; groups keep being
/// ordered by their first remaining card.
pub fn draw(groups: &[Vec<usize>], j: usize) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = groups.iter().enumerate().filter(|&(i, _)| i != j).map(|(_, g)| g.clone()).collect();
    if let Some(g) = groups.get(j) {
        if g.len() > 1 {
            let tail = g[1..].to_vec();
            let p = tail[0];
            let mut i = j; // the groups before j start before g[0], so before p too
            while i < out.len() && out[i][0] < p {
                i += 1;
            }
            out.insert(i, tail);
        }
    }
    out
}

/// The value of harvesting with a field of some aggregate (Python's `hv`): fixed for one
/// decision, memoized by aggregate.
pub trait Harvest {
    /// The harvest value of `agg`.
    fn hv(&mut self, agg: Agg) -> f64;
}

/// The cards a reveal may come from: `pool` and the memo of harvest values.
pub struct Reveals<'a, H: Harvest> {
    /// The cards the next reveals are drawn from uniformly.
    pub pool: &'a [Arc<CardBase>],
    /// Does a field card act when the turn would spoil?
    pub guard: bool,
    /// The harvest values.
    pub hv: &'a mut H,
}

impl<H: Harvest> Reveals<'_, H> {
    /// Python's `_last_reveal`: one reveal deep from the pool (no known cards, `n` > 0):
    /// each outcome either spoils or ends in harvesting (worth `stop`).
    fn last_reveal(&self, stop: f64, decay: i64, groups: &[Vec<usize>], n: usize) -> f64 {
        let pool = self.pool;
        let nf = n as f64;
        let mut total = 0.0;
        let mut spoil_v: Option<f64> = None;
        for g in groups {
            let Some(&g0) = g.first() else { continue };
            if decay + pool[g0].nd >= SPOIL_AT {
                let sv = match spoil_v {
                    Some(v) => v,
                    None => {
                        let v = if self.guard {
                            // As in push_rec: the guard reveals one more card from the same pool.
                            let safe_n: usize =
                                groups.iter().filter(|h| decay + pool[h[0]].nd < SPOIL_AT).map(Vec::len).sum();
                            let safe = safe_n as f64 / n.max(1) as f64;
                            safe * stop + (1.0 - safe) * TOKEN_VP
                        } else {
                            TOKEN_VP
                        };
                        spoil_v = Some(v);
                        v
                    }
                };
                total += g.len() as f64 / nf * sv;
            } else {
                total += g.len() as f64 / nf * stop;
            }
        }
        total
    }

    /// Expected value of the next reveal (Python's `_push_rec`). The cards it may come from
    /// are `n` cards of the pool given as `groups`; `known` cards come first. Cards of one
    /// group are one outcome, with its share of the pool as probability.
    pub fn push_rec(
        &mut self,
        agg: Agg,
        decay: i64,
        groups: &[Vec<usize>],
        n: usize,
        known: &[Arc<CardBase>],
        depth: u8,
    ) -> f64 {
        let stop = self.hv.hv(agg);
        let pool = self.pool;
        // (probability, card, its group or None for a known card)
        let outcomes: Vec<(f64, &CardBase, Option<usize>)> = if let Some(k) = known.first() {
            vec![(1.0, &**k, None)]
        } else if n == 0 {
            // Nothing left to reveal: no spoil risk, and no more pushes.
            return stop;
        } else if depth == 1 {
            return self.last_reveal(stop, decay, groups, n);
        } else {
            groups.iter().enumerate().map(|(j, g)| (g.len() as f64 / n as f64, &*pool[g[0]], Some(j))).collect()
        };
        let mut total = 0.0;
        let mut safe_n: Option<usize> = None;
        for (prob, nxt, j) in outcomes {
            let d = decay + nxt.nd;
            let v = if d >= SPOIL_AT {
                if self.guard {
                    // A guard discards the on-deck card and reveals another once: one more
                    // draw at the old decay, from the rest of the pool.
                    let sn = *safe_n.get_or_insert_with(|| {
                        groups.iter().filter(|g| decay + pool[g[0]].nd < SPOIL_AT).map(Vec::len).sum()
                    });
                    let rest_n = if j.is_some() && depth > 1 { n - 1 } else { n };
                    let safe = sn as f64 / rest_n.max(1) as f64;
                    safe * stop + (1.0 - safe) * TOKEN_VP
                } else {
                    TOKEN_VP
                }
            } else if depth > 1 {
                let go = match j {
                    Some(j) => self.push_rec(agg.with(nxt), d, &draw(groups, j), n - 1, &[], depth - 1),
                    None => self.push_rec(agg.with(nxt), d, groups, n, &known[1..], depth - 1),
                };
                if stop > go {
                    stop
                } else {
                    go
                }
            } else {
                stop
            };
            total += prob * v;
        }
        total
    }
}

/// A memo of harvest values by aggregate, around the function that computes them.
pub struct Memo<F: FnMut(Agg) -> f64> {
    memo: FxMap<(u64, [i64; 6]), f64>,
    f: F,
}

impl<F: FnMut(Agg) -> f64> Memo<F> {
    /// Memoize `f`.
    pub fn new(f: F) -> Memo<F> {
        Memo { memo: FxMap::default(), f }
    }
}

impl<F: FnMut(Agg) -> f64> Harvest for Memo<F> {
    fn hv(&mut self, agg: Agg) -> f64 {
        let k = agg.key();
        if let Some(&v) = self.memo.get(&k) {
            return v;
        }
        let v = (self.f)(agg);
        self.memo.insert(k, v);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(nd: i64, mana: f64) -> Arc<CardBase> {
        Arc::new(CardBase { nd, mana, ..CardBase::default() })
    }

    #[test]
    fn groups_follow_the_first_card_and_move_when_drawn() {
        let pool = vec![card(1, 0.0), card(0, 1.0), card(1, 0.0), card(0, 0.0), card(0, 1.0)];
        let g = groups(&pool);
        assert_eq!(g, vec![vec![0, 2], vec![1, 4], vec![3]]);
        // Drawing group 0's first card moves it behind group 1 (its next card is at 2).
        assert_eq!(draw(&g, 0), vec![vec![1, 4], vec![2], vec![3]]);
        assert_eq!(draw(&g, 2), vec![vec![0, 2], vec![1, 4]]);
    }

    #[test]
    fn spoil_odds_weigh_harvest_against_the_token() {
        // Two cards: one spoils at decay 3, one does not; harvest is worth the mana.
        let pool = vec![card(1, 0.0), card(0, 2.0)];
        let g = groups(&pool);
        let mut hv = Memo::new(|a: Agg| a.mana);
        let mut r = Reveals { pool: &pool, guard: false, hv: &mut hv };
        // One reveal: half spoils (0.4), half harvests 5 mana.
        let v = r.push_rec(Agg { mana: 3.0, n: [0; 6] }, 3, &g, 2, &[], 1);
        assert_eq!(v, 0.5 * 0.4 + 0.5 * 3.0);
        // Two reveals: after the safe card the last one surely spoils (0.4), so that
        // branch keeps the harvest before it (3).
        let v2 = r.push_rec(Agg { mana: 3.0, n: [0; 6] }, 3, &g, 2, &[], 2);
        assert_eq!(v2, 0.5 * 0.4 + 0.5 * 3.0);
        // A known card comes first, surely.
        let known = vec![card(0, 1.0)];
        assert_eq!(r.push_rec(Agg::ZERO, 0, &g, 2, &known, 1), 0.0);
    }
}

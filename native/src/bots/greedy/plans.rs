//! The greedy bot's buying plans (twin of greedy.py's `_buy_table`, `_vale_plan`,
//! `_best_plan`, `_best_last` and `_pay`): the best advancement buys for each amount of
//! mana, and the best vales (plus the spirit trade) for a set of spirit symbols.
#![forbid(unsafe_code)]

use crate::harvest::can_pay;
use rustc_hash::FxHashMap as FxMap;

/// Mana amounts of a buy table: 0 to 40.
pub const TOP: usize = 41;

/// A vale on offer: its (animal, forest, sky, any) cost and its value.
pub type Offer = ([i64; 4], f64);

/// best[m] for m = 0..40: the best total value of at most `buys` (1 or 2) of the priced
/// options (cost, value) costing m mana or less (Python's `_buy_table`; `opts` sorted by
/// cost, then value).
///
/// The best single buy at a cost is the best option of that cost, and the best pair at two
/// costs is made of the best option(s) of each, so only those are summed.
pub fn buy_table(opts: &[(i64, f64)], buys: i64) -> [f64; TOP] {
    let top = TOP as i64;
    let mut exact = [0.0f64; TOP];
    if buys <= 0 {
        return exact;
    }
    // (cost, best value, second-best value) at each cost, in ascending cost order (the
    // insertion order of Python's dicts over sorted options).
    let mut costs: Vec<(i64, f64, Option<f64>)> = Vec::new();
    for &(c, v) in opts {
        match costs.last_mut() {
            Some(last) if last.0 == c => {
                last.2 = Some(last.1);
                last.1 = v;
            }
            _ => costs.push((c, v, None)),
        }
    }
    let put = |exact: &mut [f64; TOP], p: i64, v: f64| {
        if let Some(e) = usize::try_from(p).ok().and_then(|p| exact.get_mut(p)) {
            if v > *e {
                *e = v;
            }
        }
    };
    for &(c, v, _) in &costs {
        if c < top {
            put(&mut exact, c, v);
        }
    }
    if buys >= 2 {
        for (a, &(ca, va, second)) in costs.iter().enumerate() {
            if let Some(s) = second {
                if ca + ca < top {
                    put(&mut exact, ca + ca, va + s);
                }
            }
            for &(cb, vb, _) in costs.iter().skip(a + 1) {
                let p = ca + cb;
                if p >= top {
                    break;
                }
                put(&mut exact, p, va + vb);
            }
        }
    }
    let mut best = [0.0f64; TOP];
    let mut run = 0.0;
    for (b, &e) in best.iter_mut().zip(&exact) {
        if e > run {
            run = e;
        }
        *b = run;
    }
    best
}

/// The memo of `_pay`: (spirits, need) -> -1 if they cannot pay it, else the VP the
/// spirits left would trade for (Python's `_PAYMENTS`; it never changes a result).
#[derive(Default)]
pub struct Payments {
    memo: FxMap<([i64; 4], [i64; 4]), i64>,
    /// The vale plans of two buys from nothing spent, by spirits, for the offers and the
    /// trade rule of `plans_for` (Python's `_FIELD_PLANS`).
    plans: FxMap<[i64; 4], f64>,
    plans_for: (Vec<Offer>, bool),
}

impl Payments {
    /// -1 if spirits `have` cannot pay `need` (animal, forest, sky, any), else how many VP
    /// the spirits left would trade for, 3 for one (the yucata spirit trade).
    pub fn pay(&mut self, have: [i64; 4], need: [i64; 4]) -> i64 {
        if let Some(&n) = self.memo.get(&(have, need)) {
            return n;
        }
        let n = if !can_pay(&have, &need) {
            -1
        } else {
            let mut n = 0;
            while can_pay(&have, &[need[0], need[1], need[2], need[3] + 3 * (n + 1)]) {
                n += 1;
            }
            n
        };
        if self.memo.len() >= 20000 {
            self.memo.clear();
        }
        self.memo.insert((have, need), n);
        n
    }

    /// `vale_plan(have, [0; 4], vales, 2, trade)`, the vale part of every harvest value of
    /// push/pass, memoized while the offers and the rule stay the same.
    pub fn field_plan(&mut self, have: [i64; 4], vales: &[Offer], trade: bool) -> f64 {
        if self.plans_for.1 != trade || self.plans_for.0 != vales {
            self.plans.clear();
            self.plans_for = (vales.to_vec(), trade);
        }
        if let Some(&v) = self.plans.get(&have) {
            return v;
        }
        let v = self.vale_plan(have, [0; 4], vales, 2, trade);
        if self.plans.len() >= 20000 {
            self.plans.clear();
        }
        self.plans.insert(have, v);
        v
    }

    /// Best value of up to `buys` vales payable from `have` after `spent`, plus a VP for
    /// every 3 spare spirits when trading is allowed (Python's `_vale_plan`).
    pub fn vale_plan(&mut self, have: [i64; 4], spent: [i64; 4], vales: &[Offer], buys: i64, trade: bool) -> f64 {
        let slack = self.pay(have, spent);
        self.best_plan(have, spent, slack, vales, buys, trade)
    }

    /// `vale_plan` once `spent` is known to leave `slack` (Python's `_best_plan`): a vale
    /// that cannot be paid now cannot be paid after another either, and buying leaves at
    /// most as many trades as there are now.
    fn best_plan(
        &mut self,
        have: [i64; 4],
        spent: [i64; 4],
        slack: i64,
        vales: &[Offer],
        buys: i64,
        trade: bool,
    ) -> f64 {
        let best = if trade && slack > 0 { slack as f64 } else { 0.0 };
        if buys <= 0 {
            return best;
        }
        if buys == 1 {
            return self.best_last(have, spent, vales, best, trade);
        }
        // The payable vales (in row order) and what each leaves.
        let mut offers: Vec<Offer> = Vec::new();
        let mut after: Vec<([i64; 4], i64)> = Vec::new();
        for &(cost, val) in vales {
            let need = add4(spent, cost);
            let t = self.pay(have, need);
            if t >= 0 {
                offers.push((cost, val));
                after.push((need, t));
            }
        }
        // The first vale bought, then the best plan for the rest after it in row order.
        let mut best = best;
        for (i, (&(_, val), &(need, t))) in offers.iter().zip(&after).enumerate() {
            let rest = offers.get(i + 1..).unwrap_or_default();
            let v = val + self.best_plan(have, need, t, rest, buys - 1, trade);
            if v > best {
                best = v;
            }
        }
        best
    }

    /// The better of `best` (buying no more) and buying one last vale of `vales` after
    /// `spent`: its value plus the trade of what is left (Python's `_best_last`).
    fn best_last(&mut self, have: [i64; 4], spent: [i64; 4], vales: &[Offer], best: f64, trade: bool) -> f64 {
        let base = best;
        let mut best = best;
        for &(cost, val) in vales {
            if val + base <= best {
                continue; // at most val + base after buying it: no better
            }
            let t = self.pay(have, add4(spent, cost));
            if t >= 0 {
                let v = val + if trade { t as f64 } else { 0.0 };
                if v > best {
                    best = v;
                }
            }
        }
        best
    }
}

fn add4(a: [i64; 4], b: [i64; 4]) -> [i64; 4] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_buy_table_pairs_the_best_options_of_each_cost() {
        // Python: _buy_table(((2, 1.0), (2, 1.5), (3, 2.0), (40, 9.0)), 2)
        let t = buy_table(&[(2, 1.0), (2, 1.5), (3, 2.0), (40, 9.0)], 2);
        assert_eq!(&t[..7], &[0.0, 0.0, 1.5, 2.0, 2.5, 3.5, 3.5]);
        assert_eq!(t[40], 9.0);
        let one = buy_table(&[(2, 1.0), (2, 1.5), (3, 2.0)], 1);
        assert_eq!(&one[..6], &[0.0, 0.0, 1.5, 2.0, 2.0, 2.0]);
        assert_eq!(buy_table(&[(1, 1.0)], 0), [0.0; TOP]);
    }

    #[test]
    fn payments_count_the_spare_trades() {
        let mut p = Payments::default();
        assert_eq!(p.pay([1, 0, 0, 0], [0, 1, 0, 0]), -1);
        assert_eq!(p.pay([1, 0, 0, 1], [0, 1, 0, 0]), 0);
        assert_eq!(p.pay([3, 2, 1, 1], [1, 0, 0, 0]), 2);
        assert_eq!(p.pay([0, 0, 0, 0], [0, 0, 0, 0]), 0);
    }

    #[test]
    fn vale_plans_take_the_best_vales_and_the_trade() {
        let mut p = Payments::default();
        let vales = [([1, 0, 0, 0], 2.0), ([0, 1, 0, 0], 3.5), ([0, 0, 0, 2], 3.0)];
        // 1 animal + 1 forest + 3 sky: the 2 vale, the 3.5 vale and one trade of the 3 sky.
        assert_eq!(p.vale_plan([1, 1, 3, 0], [0; 4], &vales, 2, true), 6.5);
        // one buy: 3.5 plus one trade (4 spirits left after the forest: 1 VP).
        assert_eq!(p.vale_plan([1, 1, 3, 0], [0; 4], &vales, 1, true), 4.5);
        assert_eq!(p.vale_plan([1, 1, 3, 0], [0; 4], &vales, 1, false), 3.5);
        assert_eq!(p.vale_plan([0, 0, 6, 0], [0; 4], &[], 0, true), 2.0);
    }
}

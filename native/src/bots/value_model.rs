//! Twin of mysticvale/bots/value_model.py: a position evaluation fitted to who wins (the
//! ISMCTS bot's default leaf score), equal to Python's to the last bit in our comparisons
//! (the test asks 1e-9).
//!
//! Each seat's position is a vector of [`ValueModel::seat_features`] (points in hand, the
//! symbols its cards will show times the rounds left, the harvest its field already
//! promises, ...), its *strength* is `u = points + sum(w_k * feature_k)` in VP, and the
//! chance that a seat wins against the strongest other seat is a logistic of the difference
//! of strengths over a scale that shrinks as the VP pool drains:
//!
//! `P(seat wins) = 1 / (1 + exp(-(u_seat - u_best_other + w_move * on_move) / (a + b * pool)))`
//!
//! The evaluator is a [`Greedy`] bot, which supplies the ingredients (advancement abilities
//! it has seen in the commons, buy tables, vale plans).
#![forbid(unsafe_code)]

use super::greedy::cards::{CURSE_VP, GUARDIAN_VP};
use super::greedy::view::{self, rounds_left};
use super::greedy::{Greedy, Options};
use crate::rng::Seed;
use crate::state::State;

/// Names of the features, in order (Python's `FEATURES`).
pub const FEATURES: [&str; 11] =
    ["points", "vale_text", "R*mana", "R*spirit", "R*wild", "R*vp", "R*decay", "R*other", "end_vp", "token", "harvest"];
/// Fitted weights of `FEATURES[1..]` (Python's `WEIGHTS`).
pub const WEIGHTS: [f64; 10] = [0.5, 0.056, 0.22, 0.443, 0.137, -0.88, -0.004, 0.735, 1.188, 0.422];
/// The bonus of the seat on move (`MOVE`).
pub const MOVE: f64 = 3.7;
/// The scale `a + b * pool` (`SCALE`).
pub const SCALE: (f64, f64) = (3.68, 0.325);

/// Win chances of every seat from public information and each seat's own view (Python's
/// `ValueModel`).
pub struct ValueModel {
    ev: Greedy,
    weights: [f64; 10],
    mv: f64,
    scale: (f64, f64),
}

/// A card's raw terms: mana, spirits, wilds, VP, net decay, other worth per play, end VP.
type Terms = (f64, i64, i64, i64, i64, f64, f64);

impl ValueModel {
    /// The model with the fitted weights over a greedy evaluator of these options and seed.
    pub fn new(seed: Seed, o: Options) -> ValueModel {
        ValueModel::over(Greedy::new(seed, o))
    }

    /// The model with the fitted weights over this evaluator (Python's `ValueModel(ev)`).
    pub(crate) fn over(ev: Greedy) -> ValueModel {
        ValueModel { ev, weights: WEIGHTS, mv: MOVE, scale: SCALE }
    }

    /// The greedy evaluator the model reads its ingredients from.
    pub(crate) fn evaluator(&mut self) -> &mut Greedy {
        &mut self.ev
    }

    /// The evaluator notes the advancements in the commons (as its `choose` does).
    pub fn remember(&mut self, st: &State) {
        self.ev.remember(st);
    }

    /// The raw terms of one card (Python's `_card_terms`).
    fn card_terms(&mut self, st: &State, card: crate::state::CardId, hidden: bool) -> Terms {
        let ci = if hidden { std::sync::Arc::default() } else { self.ev.card(st, card) };
        let [a, f, s, w] = ci.spirits;
        let (pe, ee) = if ci.layers.is_empty() { (0.0, 0.0) } else { self.ev.card_extra(st, &ci) };
        (
            ci.mana,
            a + f + s,
            w,
            ci.vp,
            ci.nd,
            pe + CURSE_VP * ci.curse as f64 + GUARDIAN_VP * ci.guardian as f64,
            ci.end as f64 + ee,
        )
    }

    /// The raw FEATURES of `seat` in an observation by that seat (Python's `seat_features`).
    pub fn seat_features(&mut self, st: &State, seat: u8) -> [f64; 11] {
        self.ev.remember_catalogue(st);
        let me = &st.players[usize::from(seat)];
        let r = rounds_left(st);
        let mut pts = me.vp_tokens - me.curse_tokens;
        let mut texts = 0;
        for &v in &me.vales {
            let (end, neg, text) = vale_parts(st, v);
            pts += end - neg;
            if text {
                texts += 1;
            }
        }
        let (mut mana, mut spirit, mut wild, mut vp, mut decay, mut other, mut end) =
            (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
        for (c, hidden) in view::owned(st, seat, seat) {
            let t = self.card_terms(st, c, hidden);
            mana += t.0;
            spirit += t.1 as f64;
            wild += t.2 as f64;
            vp += t.3 as f64;
            decay += t.4 as f64;
            other += t.5;
            end += t.6;
        }
        let token = if me.mana_token_active { 1.0 } else { 0.0 };
        [
            pts as f64,
            f64::from(texts),
            r * mana,
            r * spirit,
            r * wild,
            r * vp,
            r * decay,
            r * other,
            end,
            token,
            self.harvest(st, seat),
        ]
    }

    /// What the seat's turn in progress, or its prepared field, promises (VP).
    fn harvest(&mut self, st: &State, seat: u8) -> f64 {
        let mut v = 0.0;
        if st.turn.player == seat {
            if crate::game::phase(st) == "harvest" {
                return self.ev.harvest_plan_value(st) + self.ev.bought_value(st);
            }
            v = self.ev.bought_value(st);
        }
        if st.over {
            return v;
        }
        // Planting, or another seat's prepared field: it can harvest at least this much.
        v + self.ev.field_value(st, seat)
    }

    /// `u`: the seat's position in VP under the fitted weights (Python's `strength`).
    pub fn strength(&mut self, st: &State, seat: u8) -> f64 {
        self.ev.remember_catalogue(st);
        let wt = self.weights;
        let me = &st.players[usize::from(seat)];
        let mut u = (me.vp_tokens - me.curse_tokens) as f64;
        for &v in &me.vales {
            let (end, neg, text) = vale_parts(st, v);
            u += (end - neg) as f64;
            if text {
                u += wt[0];
            }
        }
        let (mut per_round, mut fixed) = (0.0, 0.0);
        for (c, hidden) in view::owned(st, seat, seat) {
            let t = self.card_terms(st, c, hidden);
            let terms = [t.0, t.1 as f64, t.2 as f64, t.3 as f64, t.4 as f64, t.5];
            let mut pr = 0.0;
            for k in 1..7 {
                pr += wt[k] * terms[k - 1];
            }
            per_round += pr;
            fixed += wt[7] * t.6;
        }
        u += rounds_left(st) * per_round + fixed;
        if me.mana_token_active {
            u += wt[8];
        }
        u + wt[9] * self.harvest(st, seat)
    }

    /// Each seat's chance of winning (a finished game: 1 / 0 / shared) in a state the
    /// caller may see whole (a determinization; Python's `win_chances`).
    pub fn win_chances(&mut self, st: &State) -> Vec<f64> {
        let n = st.players.len();
        if st.over {
            return finished_shares(st);
        }
        let u: Vec<f64> = (0..n as u8).map(|p| self.strength(st, p)).collect();
        let mover = crate::flow::acting_player(st);
        let pool = st.vp_pool.max(0) as f64;
        let sc = self.scale.0 + self.scale.1 * pool;
        let scale = if sc > 0.5 { sc } else { 0.5 };
        let bonus = |q: usize| if mover == Some(q as u8) { self.mv } else { 0.0 };
        (0..n)
            .map(|p| {
                let mut other: Option<f64> = None;
                for q in (0..n).filter(|&q| q != p) {
                    let x = u[q] + bonus(q);
                    if other.is_none_or(|o| x > o) {
                        other = Some(x);
                    }
                }
                let d = u[p] + bonus(p) - other.unwrap_or(0.0);
                let x = d / scale;
                let x = if x < 60.0 { x } else { 60.0 };
                let x = if x > -60.0 { x } else { -60.0 };
                1.0 / (1.0 + (-x).exp())
            })
            .collect()
    }
}

/// Each seat's share of the win in a finished game: 1 / 0, or 1/k of a k-way tie (Python's
/// `finished_shares`).
pub fn finished_shares(st: &State) -> Vec<f64> {
    let w = crate::scoring::winners(st);
    (0..st.players.len()).map(|p| if w.contains(&(p as u8)) { 1.0 / w.len() as f64 } else { 0.0 }).collect()
}

/// A vale's end VP, negative VP and whether it has a text.
fn vale_parts(st: &State, v: crate::state::ValeId) -> (i64, i64, bool) {
    st.vale_types
        .get(usize::from(v))
        .and_then(|&t| st.cat.vales.get(usize::from(t)))
        .map_or((0, 0, false), |vt| (vt.end_vp, vt.neg_vp, !vt.text.is_empty()))
}

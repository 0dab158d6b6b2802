//! Twin of mysticvale/bots/ismcts.py: single-observer information-set Monte Carlo tree
//! search (SO-ISMCTS) with a greedy rollout and a value-model cut-off, making exactly the
//! Python bot's move for the same seed under an iteration budget.
//!
//! Each iteration ([`search`]) samples a determinization of what the seat knows, descends
//! the [`tree`] through the actions legal in that sample by UCB1 with availability counts
//! and a progressive bias toward the greedy rules' choice, adds one node, plays on with the
//! greedy rules ([`Greedy`] depth 1, one sample, never its lookahead) until `horizon` turns
//! have ended, and backs up each seat's [`score`] (the fitted value model, or a logistic of
//! the greedy position value). The move played is the root's most visited child unless it
//! is not `margin` times more visited than the full greedy bot's choice.
//!
//! Same streams as Python: the bot's `Rng(seed)` feeds the determinizations (stream
//! `"determinize"`) and the choice among untried actions (stream `"expand"`); the rollout
//! rules and the evaluator are greedy bots of the same seed, sharing the advancement copies
//! they have seen (one store lent between them: [`Greedy::swap_seen`]).
#![forbid(unsafe_code)]

pub mod options;
mod score;
mod search;
pub mod tree;

use std::time::{Duration, Instant};

use super::greedy::{self, Greedy};
use super::value_model::ValueModel;
use super::{Bot, SearchStats, SeatView};
use crate::rng::{Rng, Seed, Stream};

pub use options::{Options, ValueKind};

/// The ISMCTS bot (Python's `ISMCTS`).
pub struct Ismcts {
    o: Options,
    rng: Rng,
    determinize: Stream,
    expand: Stream,
    /// The rollout policy: greedy rules only, one reveal deep.
    rollout: Greedy,
    /// The value model over the full greedy evaluator (the root's preference, and the
    /// greedy position value with `value = greedy`).
    model: ValueModel,
    last: Option<SearchStats>,
}

impl Ismcts {
    /// The bot's name (`ISMCTS.name`).
    pub const NAME: &'static str = "ismcts";

    /// An ISMCTS bot with these options, drawing from `Rng(seed)`.
    pub fn new(seed: Seed, o: Options) -> Ismcts {
        let mut rollout =
            Greedy::new(seed.clone(), greedy::Options { depth: 1, samples: 1, ..greedy::Options::default() });
        rollout.rules_only();
        Ismcts {
            o,
            rng: Rng::new(seed.clone()),
            determinize: Stream::from_name("determinize"),
            expand: Stream::from_name("expand"),
            rollout,
            model: ValueModel::over(Greedy::new(seed, greedy::Options::default())),
            last: None,
        }
    }

    /// Run `f` on the evaluator with the advancement copies the rollout has seen (and give
    /// them back after).
    fn with_evaluator<R>(&mut self, f: impl FnOnce(&mut ValueModel) -> R) -> R {
        self.model.evaluator().swap_seen(&mut self.rollout);
        let r = f(&mut self.model);
        self.model.evaluator().swap_seen(&mut self.rollout);
        r
    }
}

impl Bot for Ismcts {
    fn name(&self) -> &'static str {
        Self::NAME
    }

    fn act(&mut self, view: &SeatView<'_>) -> Result<usize, String> {
        let legal = view.decision()?;
        if legal.len() == 1 {
            self.last = None;
            return Ok(0);
        }
        let (st, seat) = (view.state, view.seat);
        self.rollout.remember(st);
        let stop_turn = st.turn_number.saturating_add(self.o.horizon);
        let mut t = tree::Tree::default();
        let start = Instant::now(); // the think budget covers the whole decision
                                    // The root's preferred move comes from the full greedy rules; deeper nodes use the
                                    // cheap rollout rules.
        let pref = self.with_evaluator(|m| m.evaluator().choose(st, seat, legal));
        t.node_mut(tree::ROOT).pref = legal.get(pref).cloned();
        // A think time too long for an Instant is no limit.
        let deadline = if self.o.think > 0.0 {
            Duration::try_from_secs_f64(self.o.think).ok().and_then(|d| start.checked_add(d))
        } else {
            None
        };
        let mut n: u64 = 0;
        loop {
            if self.o.iterations.is_some_and(|it| n >= it) {
                break;
            }
            if deadline.is_some_and(|d| n > 0 && Instant::now() >= d) {
                break;
            }
            self.iterate(st, seat, &mut t, stop_turn)?;
            n += 1;
        }
        let root = t.node(tree::ROOT);
        // (index in legal, visits, mean) of the root's children, in the order they were added.
        let stats: Vec<(usize, u64, f64)> = root
            .children
            .iter()
            .filter_map(|(a, id)| {
                let ch = t.node(*id);
                legal.iter().position(|l| l == a).map(|i| (i, ch.visits, ch.mean()))
            })
            .collect();
        self.last = Some(SearchStats {
            iterations: n,
            seconds: start.elapsed().as_secs_f64(),
            root: stats.iter().map(|&(i, v, m)| (legal[i].to_string(), v, m)).collect(),
        });
        let pref = root.pref.as_ref().and_then(|p| legal.iter().position(|l| l == p));
        match tree::best_move(&stats, pref, self.o.margin) {
            Some(k) => Ok(k),
            None => Ok(self.rollout.choose(st, seat, legal)),
        }
    }

    fn last(&self) -> Option<&SearchStats> {
        self.last.as_ref()
    }
}

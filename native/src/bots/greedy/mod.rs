//! Twin of mysticvale/bots/greedy.py: a greedy heuristic bot that reads only what its seat
//! may know, and makes exactly the Python bot's choice at every decision for the same seed.
//!
//! How it plays (see the Python module's docstring for the whole story):
//!
//! * **push / pass** from the exact chance that the next reveal spoils ([`push`]);
//! * **buys** by a value estimate of each advancement over the plays it can still get
//!   ([`cards`], [`plans`], [`harvest`]);
//! * **every pending decision** of the base game by a deliberate rule ([`decide`]); any
//!   other by a one-step lookahead on determinized copies ([`lookahead`]).
//!
//! The bot reads the state through [`view`], the twin of the observation fields the Python
//! bot reads (never hidden state: in the lookahead it reads determinized copies, as Python
//! does). Its own `Rng(seed)` stream `"determinize"` only feeds those determinizations.
//! Every float is computed by the same operations in the same order as in Python, and ties
//! are broken alike (`> best + 1e-9`, the first found wins).
#![forbid(unsafe_code)]

pub mod cards;
mod decide;
mod harvest;
mod lookahead;
pub mod plans;
pub mod push;
pub mod text;
mod values;
pub mod view;

use std::sync::Arc;

use rustc_hash::FxHashMap as FxMap;

use super::{Bot, SeatView};
use crate::actions::{Notation, Verb};
use crate::catalogue::Catalogue;
use crate::rng::{Rng, Seed, Stream};
use crate::state::{CopyId, State};

use cards::{CardBase, CopyInfo, Weights, DECAY_VP, MANA_VP, PLAY_RATE, SPIRIT_VP};
use plans::{Payments, TOP};

/// One advancement copy's view and the parts of its value (`_copy_parts`, cached).
struct CopyEntry {
    info: CopyInfo,
    parts: (f64, i64, i64, f64),
    extra: (f64, f64),
    gives_mana: bool,
}

/// The key of a buy table: the commons, whether Fertile Soil is left, its cost, the round
/// estimate (by its bits) and the buys.
type TableKey = ([[Option<CopyId>; 3]; 3], bool, i64, u64, i64);

/// The greedy bot (Python's `Greedy`): push/pass by exact spoil odds, buys by value,
/// deliberate answers to every decision.
pub struct Greedy {
    depth: u8,
    samples: u32,
    w: Weights,
    rng: Rng,
    stream: Stream,
    /// Advancement copies seen in the commons (Python's `_copies`, by label: a label is one
    /// copy).
    seen: Vec<bool>,
    in_lookahead: bool,
    // Caches (they never change a result): the catalogue they belong to, copy values by
    // copy, card infos by make-up, buy tables, payments.
    cat: Option<Arc<Catalogue>>,
    copies: Vec<Option<CopyEntry>>,
    cards: FxMap<Arc<[CopyId]>, Arc<CardBase>>,
    tables: FxMap<TableKey, [f64; TOP]>,
    pay: Payments,
}

/// Greedy's options (Python's keyword arguments of `Greedy`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// Reveals looked ahead for push/pass, 1-3.
    pub depth: u8,
    /// Determinizations per answer in the general lookahead, at least 1.
    pub samples: u32,
    /// Weights of the value estimate of advancements.
    pub mana_vp: f64,
    /// A spirit symbol.
    pub spirit_vp: f64,
    /// A decay symbol.
    pub decay_vp: f64,
    /// Plays per round of one card.
    pub play_rate: f64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            depth: 2,
            samples: 2,
            mana_vp: MANA_VP,
            spirit_vp: SPIRIT_VP,
            decay_vp: DECAY_VP,
            play_rate: PLAY_RATE,
        }
    }
}

/// An option's value as the arena reads it (Python's `_number`: an int, else a float,
/// else the text).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    Int(i64),
    Float(f64),
    Text(String),
}

impl Value {
    pub(crate) fn read(v: &str) -> Value {
        if let Ok(i) = v.parse::<i64>() {
            return Value::Int(i);
        }
        match v.parse::<f64>() {
            Ok(f) => Value::Float(f),
            Err(_) => Value::Text(v.to_owned()),
        }
    }

    /// Python's `repr` of it.
    pub(crate) fn repr(&self) -> String {
        match self {
            Value::Int(i) => i.to_string(),
            Value::Float(f) => py_float(*f),
            Value::Text(t) => crate::errors::py_repr(t),
        }
    }

    /// Python's `float(v)`.
    pub(crate) fn float(&self) -> Result<f64, String> {
        match self {
            Value::Int(i) => Ok(*i as f64),
            Value::Float(f) => Ok(*f),
            Value::Text(t) => Err(format!("could not convert string to float: {}", crate::errors::py_repr(t))),
        }
    }
}

/// Python's `repr` of a float (shortest round-trip digits, `.0` for whole numbers).
fn py_float(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf".into() } else { "-inf".into() };
    }
    format!("{f:?}")
}

impl Options {
    /// The options of a bot spec's `key=value` parts (Python's `parse_bot` then
    /// `Greedy(**opts)`), with Python's messages for a bad one.
    pub fn parse(parts: &[&str], spec: &str) -> Result<Options, String> {
        let mut o = Options::default();
        let mut depth = Value::Int(2);
        let mut samples = Value::Int(2);
        for p in parts {
            let Some((k, v)) = p.split_once('=') else {
                return Err(format!(
                    "bot option {} in {} must look like key=value",
                    crate::errors::py_repr(p),
                    crate::errors::py_repr(spec)
                ));
            };
            let v = Value::read(v.trim());
            match k.trim() {
                "depth" => depth = v,
                "samples" => samples = v,
                "mana_vp" => o.mana_vp = v.float()?,
                "spirit_vp" => o.spirit_vp = v.float()?,
                "decay_vp" => o.decay_vp = v.float()?,
                "play_rate" => o.play_rate = v.float()?,
                "seed" => return Err(crate::bots::SEED_TWICE.into()),
                other => {
                    return Err(format!(
                        "Greedy.__init__() got an unexpected keyword argument {}",
                        crate::errors::py_repr(other)
                    ))
                }
            }
        }
        o.depth = match depth {
            Value::Int(d @ 1..=3) => d as u8,
            Value::Float(f) if f == 1.0 || f == 2.0 || f == 3.0 => f as u8,
            other => return Err(format!("greedy depth must be 1, 2 or 3, not {}", other.repr())),
        };
        o.samples = match samples {
            Value::Int(s) if s >= 1 => u32::try_from(s).map_err(|_| format!("greedy samples {s} is too large"))?,
            Value::Int(s) => return Err(format!("greedy samples must be at least 1, not {s}")),
            Value::Float(f) if f < 1.0 => {
                return Err(format!("greedy samples must be at least 1, not {}", py_float(f)))
            }
            Value::Float(_) => return Err("'float' object cannot be interpreted as an integer".into()),
            Value::Text(_) => return Err("'<' not supported between instances of 'str' and 'int'".into()),
        };
        Ok(o)
    }
}

impl Greedy {
    /// The bot's name (`Greedy.name`).
    pub const NAME: &'static str = "greedy";

    /// A greedy bot with these options, drawing from `Rng(seed)` (Python's
    /// `Greedy(seed, ...)`).
    pub fn new(seed: Seed, o: Options) -> Greedy {
        Greedy {
            depth: o.depth,
            samples: o.samples,
            w: Weights { mana_vp: o.mana_vp, spirit_vp: o.spirit_vp, decay_vp: o.decay_vp, play_rate: o.play_rate },
            rng: Rng::new(seed),
            stream: Stream::from_name("determinize"),
            seen: Vec::new(),
            in_lookahead: false,
            cat: None,
            copies: Vec::new(),
            cards: FxMap::default(),
            tables: FxMap::default(),
            pay: Payments::default(),
        }
    }

    /// Make the caches those of `st`'s catalogue (emptied for another one).
    fn use_catalogue(&mut self, st: &State) {
        if self.cat.as_ref().is_some_and(|c| Arc::ptr_eq(c, &st.cat)) {
            return;
        }
        let n = st.cat.copies.len();
        self.cat = Some(st.cat.clone());
        self.copies = (0..n).map(|_| None).collect();
        self.cards.clear();
        self.tables.clear();
        if self.seen.len() != n {
            self.seen = vec![false; n];
        }
    }

    /// The bot's action for this state, as an index of `legal` (Python's `choose`; `legal`
    /// has two actions or more).
    pub(crate) fn choose(&mut self, st: &State, seat: u8, legal: &[Notation]) -> usize {
        self.remember(st);
        if let Some(pd) = st.pending.last() {
            if pd.player == seat {
                let a = match &*pd.kind {
                    "prep_stop" => self.decide_prep_stop(st, seat, legal),
                    "order" => Some(self.lookahead(st, seat, legal, &all(legal))),
                    "spoil_guard" => decide::spoil_guard(legal),
                    "look_top" => self.decide_look_top(st, seat, legal),
                    "discard_field" => self.decide_discard_field(st, seat, legal),
                    "search_deck" => self.decide_search_deck(st, seat, legal),
                    "sleeve" => self.decide_sleeve(st, seat, legal),
                    _ => None,
                };
                if let Some(a) = a {
                    return a;
                }
                return self.lookahead(st, seat, legal, &all(legal));
            }
        }
        if legal.iter().all(|a| matches!(a.verb, Verb::Push | Verb::Pass)) {
            return self.push_or_pass(st, seat, legal);
        }
        if crate::game::phase(st) == "harvest" {
            return self.harvest(st, seat, legal);
        }
        self.lookahead(st, seat, legal, &all(legal))
    }

    /// The rules alone, never the determinized lookahead (Python's `_in_lookahead = True`
    /// set from outside: the ISMCTS bot's rollout policy).
    pub(crate) fn rules_only(&mut self) {
        self.in_lookahead = true;
    }

    /// Trade the advancement copies seen with `other`'s: a search bot keeps one store that
    /// its greedy helpers lend each other (Python's `evaluator._copies = rollout._copies`).
    pub(crate) fn swap_seen(&mut self, other: &mut Greedy) {
        std::mem::swap(&mut self.seen, &mut other.seen);
    }

    /// Make the caches those of `st`'s catalogue (for the value model's calls).
    pub fn remember_catalogue(&mut self, st: &State) {
        self.use_catalogue(st);
    }

    /// Note the advancements in the commons (Python's `_remember`).
    pub fn remember(&mut self, st: &State) {
        self.use_catalogue(st);
        for c in st.commons.iter().flatten().flatten() {
            if let Some(s) = self.seen.get_mut(usize::from(*c)) {
                *s = true;
            }
        }
    }
}

/// Every index of `legal`.
fn all(legal: &[Notation]) -> Vec<usize> {
    (0..legal.len()).collect()
}

/// The first of `cands` with `verb` (Python's `_find`).
fn find(legal: &[Notation], cands: &[usize], verb: Verb) -> Option<usize> {
    cands.iter().copied().find(|&i| legal.get(i).is_some_and(|a| a.verb == verb))
}

impl Bot for Greedy {
    fn name(&self) -> &'static str {
        Self::NAME
    }

    fn act(&mut self, view: &SeatView<'_>) -> Result<usize, String> {
        let legal = view.decision()?;
        if legal.len() == 1 {
            return Ok(0);
        }
        Ok(self.choose(view.state, view.seat, legal))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_read_as_the_python_bot_takes_them() {
        let o = Options::parse(&["depth=1", "spirit_vp=1.6", "samples=3"], "greedy:depth=1:spirit_vp=1.6:samples=3");
        assert_eq!(o, Ok(Options { depth: 1, samples: 3, spirit_vp: 1.6, ..Options::default() }));
        assert_eq!(Options::parse(&["mana_vp=1"], "x").map(|o| o.mana_vp), Ok(1.0));
        let err = |parts: &[&str]| Options::parse(parts, "greedy:x").err().unwrap_or_default();
        assert_eq!(err(&["depth=4"]), "greedy depth must be 1, 2 or 3, not 4");
        assert_eq!(err(&["depth=1,spirit_vp=1.6"]), "greedy depth must be 1, 2 or 3, not '1,spirit_vp=1.6'");
        assert_eq!(err(&["samples=0"]), "greedy samples must be at least 1, not 0");
        assert_eq!(err(&["spirit_vp=lots"]), "could not convert string to float: 'lots'");
        assert_eq!(err(&["speed=2"]), "Greedy.__init__() got an unexpected keyword argument 'speed'");
        assert_eq!(err(&["depth"]), "bot option 'depth' in 'greedy:x' must look like key=value");
    }
}

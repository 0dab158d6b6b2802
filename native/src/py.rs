//! The Python face: the extension module `mysticvale._native` (the only file naming pyo3).
//!
//! Every entry point goes through [`guarded`], the one boundary helper: a Rust panic (a bug)
//! becomes `RuntimeError("native engine bug: ...")` and never takes the interpreter down, and
//! a method changes its object only once its work has succeeded.
#![deny(clippy::unwrap_used, clippy::expect_used)]

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString};

use crate::actions::{InvalidAction, Notation};
use crate::catalogue::{self, Catalogue};
use crate::errors::{self, py_repr};
use crate::pyjson::J;
use crate::rng::{Rng, Seed, Stream};
use crate::sleeve;

pyo3::import_exception!(mysticvale.errors, CatalogueError);
pyo3::import_exception!(mysticvale.errors, IllegalActionError);
pyo3::import_exception!(mysticvale.errors, InvalidActionError);
pyo3::import_exception!(mysticvale.errors, SaveError);

/// Run `f`, turning a panic into `RuntimeError("native engine bug: ...")`.
fn guarded<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".to_owned());
            Err(PyRuntimeError::new_err(format!("native engine bug: {what}")))
        }
    }
}

impl From<errors::CatalogueError> for PyErr {
    fn from(e: errors::CatalogueError) -> PyErr {
        CatalogueError::new_err((e.problems, e.source))
    }
}

/// The resolved catalogue of one game, built once from `native_catalogue.table_json`.
#[pyclass(name = "Catalogue", module = "mysticvale._native", frozen)]
struct PyCatalogue {
    inner: Arc<Catalogue>,
}

#[pymethods]
impl PyCatalogue {
    /// Build the typed tables from the canonical JSON table; `CatalogueError` listing every
    /// problem if the native core cannot represent it.
    #[staticmethod]
    #[pyo3(signature = (text, source = "native catalogue"))]
    fn from_table_json(text: &str, source: &str) -> PyResult<PyCatalogue> {
        guarded(|| Ok(PyCatalogue { inner: Catalogue::shared(text, source)? }))
    }

    /// The chosen sets.
    #[getter]
    fn sets(&self) -> Vec<String> {
        self.inner.sets.iter().map(|s| s.to_string()).collect()
    }

    /// Every copy's label, in `Catalogue.copies` order.
    fn labels(&self) -> Vec<String> {
        self.inner.copies.iter().map(|c| c.label.to_string()).collect()
    }

    /// Every advancement type's name, in `Catalogue.advancements` order.
    fn type_names(&self) -> Vec<String> {
        self.inner.types.iter().map(|t| t.name.to_string()).collect()
    }

    /// Every vale type's name, in `Catalogue.vale_list` order.
    fn vale_names(&self) -> Vec<String> {
        self.inner.vales.iter().map(|v| v.name.to_string()).collect()
    }

    /// Every leader's name, in `Catalogue.leaders` order.
    fn leader_names(&self) -> Vec<String> {
        self.inner.leaders.iter().map(|l| l.name.to_string()).collect()
    }

    /// The copy of a label (`Catalogue.from_label`); `ValueError` with Python's message if none.
    #[allow(clippy::wrong_self_convention)] // Python's name (Catalogue.from_label)
    fn from_label(&self, label: &str) -> PyResult<u16> {
        self.inner
            .from_label(label)
            .ok_or_else(|| PyValueError::new_err(format!("no advancement copy {} in this catalogue", py_repr(label))))
    }

    /// The supply deck of a level (`Catalogue.supply_copies`).
    fn supply_copies(&self, level: u8) -> Vec<u16> {
        self.inner.supply_copies(level).to_vec()
    }

    /// The vale deck of a level (`Catalogue.supply_vales`).
    fn supply_vales(&self, level: u8) -> Vec<u16> {
        self.inner.supply_vales(level)
    }

    /// slot -> the Fertile Soil copy (`Catalogue.soil_copies`).
    fn soil_copies<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for slot in crate::card_types::SLOTS {
            d.set_item(slot.name(), self.inner.soil_copy(slot))?;
        }
        Ok(d)
    }

    /// The copies that are parts of a leader card (`Catalogue.leader_copies`), sorted.
    fn leader_copies(&self) -> Vec<u16> {
        (0u16..).zip(&self.inner.copies).filter(|(i, _)| self.inner.is_leader_copy(*i)).map(|(i, _)| i).collect()
    }

    /// Each type's abilities as (trigger, effect) names, in type order.
    fn abilities(&self) -> Vec<Vec<(&'static str, &'static str)>> {
        self.inner
            .types
            .iter()
            .map(|t| t.abilities.iter().map(|a| (a.trigger.name(), a.effect.name())).collect())
            .collect()
    }

    /// A card's stats (`Catalogue.stats`, as a dict of plain values; abilities as
    /// `(layer, trigger, effect)`, `by_trigger` in order of first appearance).
    fn stats<'py>(&self, py: Python<'py>, layers: Vec<u16>) -> PyResult<Bound<'py, PyDict>> {
        self.check_copies(&layers)?;
        let cat = &*self.inner;
        let s = guarded(|| Ok(sleeve::compute_stats(cat, &layers)))?;
        let d = PyDict::new(py);
        d.set_item("symbols", s.symbols.to_vec())?;
        d.set_item("printed", s.printed.to_vec())?;
        d.set_item("aether_decay", s.aether_decay)?;
        let abilities: Vec<(u8, &str, &str)> = s
            .abilities
            .iter()
            .map(|r| {
                let a = r.ability(cat);
                (r.layer, a.trigger.name(), a.effect.name())
            })
            .collect();
        d.set_item("abilities", abilities)?;
        // Widened: PyO3 turns a Vec<u8> into bytes.
        d.set_item("active_layers", s.active_layers.iter().map(|&l| u32::from(l)).collect::<Vec<u32>>())?;
        d.set_item("has_cursed_land", s.has_cursed_land)?;
        d.set_item("level3", s.level3)?;
        d.set_item("end_vp", s.end_vp)?;
        d.set_item("neg_vp", s.neg_vp)?;
        d.set_item("net", s.net)?;
        d.set_item("aether_net", s.aether_net)?;
        let by = PyDict::new(py);
        for r in &s.abilities {
            let trigger = r.ability(cat).trigger;
            if by.contains(trigger.name())? {
                continue;
            }
            let rows: Vec<(u8, u8, &str)> =
                s.by_trigger(cat, trigger).map(|(l, k, a)| (l, k, a.ability(cat).effect.name())).collect();
            by.set_item(trigger.name(), rows)?;
        }
        d.set_item("by_trigger", by)?;
        Ok(d)
    }

    /// May copy `copy` be sleeved on a card with these layers (`Catalogue.fits`)?
    fn fits(&self, layers: Vec<u16>, copy: u16) -> PyResult<bool> {
        self.check_copies(&layers)?;
        self.check_copies(&[copy])?;
        guarded(|| Ok(sleeve::can_sleeve(&self.inner, &layers, copy)))
    }

    /// The save's `"catalogue"` entry, as Python's `serialize.dumps` writes it.
    #[getter]
    fn save_json(&self) -> String {
        self.inner.save_json.to_string()
    }
}

impl PyCatalogue {
    fn check_copies(&self, ids: &[u16]) -> PyResult<()> {
        match ids.iter().find(|&&c| usize::from(c) >= self.inner.copies.len()) {
            Some(c) => Err(PyValueError::new_err(format!(
                "no advancement copy {c} in this catalogue (it has {})",
                self.inner.copies.len()
            ))),
            None => Ok(()),
        }
    }
}

/// Named SplitMix64 streams, the twin of `mysticvale.engine.rng.Rng`.
#[pyclass(name = "Rng", module = "mysticvale._native")]
struct PyRng {
    inner: Rng,
}

fn seed_of(seed: &Bound<'_, PyAny>) -> PyResult<Seed> {
    if !seed.is_instance_of::<PyInt>() || seed.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!("a seed is an int, not {}", seed.repr()?)));
    }
    let text = seed.str()?.to_string();
    Seed::parse(&text).ok_or_else(|| PyValueError::new_err(format!("not an integer seed: {text}")))
}

#[pymethods]
impl PyRng {
    /// A generator for `seed` (any int); no stream has drawn yet.
    #[new]
    fn new(seed: &Bound<'_, PyAny>) -> PyResult<PyRng> {
        guarded(|| Ok(PyRng { inner: Rng::new(seed_of(seed)?) }))
    }

    /// A uniform integer in `range(n)` drawn from `stream` (1 <= n < 2**64).
    fn below(&mut self, stream: &str, n: &Bound<'_, PyAny>) -> PyResult<u64> {
        let n: i128 = n.extract()?;
        if n <= 0 {
            return Err(PyValueError::new_err("below() needs a positive bound"));
        }
        let n = u64::try_from(n)
            .map_err(|_| PyValueError::new_err("the native core draws below bounds up to 2**64 - 1"))?;
        let stream = Stream::from_name(stream);
        guarded(|| Ok(self.inner.below(&stream, n)))
    }

    /// Fisher-Yates shuffle of a list in place.
    fn shuffle(&mut self, stream: &str, items: &Bound<'_, PyList>) -> PyResult<()> {
        let stream = Stream::from_name(stream);
        let old: Vec<Bound<'_, PyAny>> = items.iter().collect();
        let mut order: Vec<usize> = (0..old.len()).collect();
        guarded(|| {
            self.inner.shuffle(&stream, &mut order);
            Ok(())
        })?;
        for (k, &i) in order.iter().enumerate() {
            items.set_item(k, &old[i])?;
        }
        Ok(())
    }

    /// `{"seed": seed, "states": {name: state}}` with the names sorted, as `Rng.to_dict()`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let states = PyDict::new(py);
        for (name, v) in self.inner.sorted_states() {
            states.set_item(name, v)?;
        }
        let d = PyDict::new(py);
        let int = py.get_type::<PyInt>().call1((self.inner.seed().as_str(),))?;
        d.set_item("seed", int)?;
        d.set_item("states", states)?;
        Ok(d)
    }
}

/// Python's own `repr` of a text (exact for every character, unlike [`py_repr`]'s
/// approximation of which characters Python prints).
fn python_repr(py: Python<'_>, s: &str) -> String {
    PyString::new(py, s).repr().map(|r| r.to_string()).unwrap_or_else(|_| py_repr(s))
}

fn invalid_action(py: Python<'_>, e: &InvalidAction) -> PyErr {
    InvalidActionError::new_err(e.message_with(|s| python_repr(py, s)))
}

/// Read action notation as `Action.parse`: `(verb, args)`, or `InvalidActionError` with
/// Python's message.
#[pyfunction]
fn parse_action(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<(&'static str, Vec<String>)> {
    let Ok(text) = text.downcast::<PyString>() else {
        let name = text.get_type().name()?.to_string();
        return Err(InvalidActionError::new_err(format!("an action must be text, not {name}")));
    };
    match text.to_str() {
        Ok(s) => guarded(|| match s.parse::<Notation>() {
            Ok(n) => Ok((n.verb.word(), n.args.iter().map(|a| a.to_string()).collect())),
            Err(e) => Err(invalid_action(py, &e)),
        }),
        // Text Rust cannot hold (a lone surrogate): it is no notation, since every verb and
        // argument is ASCII. Read it as lossy text to find what is wrong, and quote the
        // original words, as Python's message does.
        Err(_) => {
            let lossy = text.to_string_lossy().into_owned();
            let err = match lossy.parse::<Notation>() {
                Ok(_) => return Err(PyRuntimeError::new_err("native engine bug: a surrogate read as notation")),
                Err(e) => e,
            };
            let words = text.call_method0("split")?;
            let original = |i: usize| -> PyResult<String> { Ok(words.get_item(i)?.repr()?.to_string()) };
            let message = match &err {
                InvalidAction::Empty => err.message_with(|s| python_repr(py, s)),
                InvalidAction::UnknownVerb { .. } => {
                    let verbs: Vec<&str> = crate::actions::VERBS.iter().map(|v| v.word()).collect();
                    format!("unknown verb {} in {}; verbs are: {}", original(0)?, text.repr()?, verbs.join(", "))
                }
                InvalidAction::UnexpectedCharacters { position, .. } => {
                    format!("unexpected characters in {} of {}", original(*position)?, text.repr()?)
                }
            };
            Err(InvalidActionError::new_err(message))
        }
    }
}

/// The save text of a game just set up, before its first turn: the twin of
/// `serialize.dumps(setup.new_state(cat, get_ruleset(ruleset), players, seed, deal_fields=...))`.
/// `ValueError` with Python's messages for an unknown rule set or a player count outside 2-4.
#[pyfunction]
#[pyo3(signature = (catalogue, ruleset, players, seed, deal_fields = true))]
fn new_state_json(
    catalogue: &PyCatalogue,
    ruleset: &str,
    players: i64,
    seed: &Bound<'_, PyAny>,
    deal_fields: bool,
) -> PyResult<String> {
    let rs = crate::rulesets::get_ruleset(ruleset).map_err(PyValueError::new_err)?;
    let seed = seed_of(seed)?;
    let players = u8::try_from(players)
        .map_err(|_| PyValueError::new_err(format!("Mystic Vale is for 2 to 4 players, not {players}")))?;
    let cat = catalogue.inner.clone();
    guarded(|| {
        let st = crate::setup::new_state(cat, rs, players, seed, deal_fields).map_err(PyValueError::new_err)?;
        Ok(crate::serialize::dumps(&st))
    })
}

/// Load a save into the native state and write it again: the text of
/// `serialize.dumps(serialize.loads(text))`. `catalogue` is the twin of the catalogue the
/// save names (`engine/native.py` `load_save` resolves it); `SaveError` for a corrupt save.
#[pyfunction]
fn save_round_trip(catalogue: &PyCatalogue, text: &str) -> PyResult<String> {
    let cat = catalogue.inner.clone();
    guarded(|| match crate::serialize::loads(cat, text) {
        Ok(st) => Ok(crate::serialize::dumps(&st)),
        Err(e) => Err(SaveError::new_err(e.0)),
    })
}

/// A game's state in the native core, read from a save (the facade's state, so far without
/// play: reading, writing and scoring).
#[pyclass(name = "State", module = "mysticvale._native")]
struct PyState {
    inner: crate::state::State,
    /// The legal actions of `inner`, computed once per position (`None`: not yet).
    legal: Option<Vec<Notation>>,
}

impl PyState {
    fn of(inner: crate::state::State) -> PyState {
        PyState { inner, legal: None }
    }

    /// Change the game by `f` on a copy, kept only if `f` succeeds (an error or a panic leaves
    /// the game as it was); the legal actions are computed anew afterwards.
    fn change<T>(&mut self, f: impl FnOnce(&mut crate::state::State) -> PyResult<T>) -> PyResult<T> {
        let mut next = self.inner.clone();
        let out = guarded(|| f(&mut next))?;
        self.inner = next;
        self.legal = None;
        Ok(out)
    }

    /// The legal actions now, computed once per position.
    fn legal_now(&mut self) -> PyResult<&[Notation]> {
        if self.legal.is_none() {
            let st = &self.inner;
            self.legal = Some(guarded(|| Ok(crate::flow::legal_for_phase(st)))?);
        }
        Ok(self.legal.as_deref().unwrap_or_default())
    }

    /// A seat number of this game, or `ValueError` with Python's message.
    fn seat(&self, seat: i64) -> PyResult<u8> {
        let n = self.inner.players.len();
        u8::try_from(seat)
            .ok()
            .filter(|&p| usize::from(p) < n)
            .ok_or_else(|| PyValueError::new_err(format!("no seat {seat} in a {n}-player game")))
    }
}

/// Read a Python `Rng.states` dict (stream name -> state) as the native streams.
fn stream_states(states: &Bound<'_, PyDict>) -> PyResult<Vec<(Stream, u64)>> {
    let mut out = Vec::with_capacity(states.len());
    for (k, v) in states.iter() {
        let name: String = k.extract()?;
        let value: u64 = v.extract().map_err(|_| {
            PyValueError::new_err(format!("the state of random stream {} is not a 64-bit unsigned int", py_repr(&name)))
        })?;
        out.push((Stream::from_name(&name), value));
    }
    Ok(out)
}

#[pymethods]
impl PyState {
    /// Read a save with the twin of the catalogue it names; `SaveError` for a corrupt one.
    #[staticmethod]
    fn from_json(catalogue: &PyCatalogue, text: &str) -> PyResult<PyState> {
        let cat = catalogue.inner.clone();
        guarded(|| match crate::serialize::loads(cat, text) {
            Ok(inner) => Ok(PyState::of(inner)),
            Err(e) => Err(SaveError::new_err(e.0)),
        })
    }

    /// The save's text, as the Python engine writes it.
    fn to_json(&self) -> PyResult<String> {
        guarded(|| Ok(crate::serialize::dumps(&self.inner)))
    }

    /// The save's text with only the events from number `since` on (the lockstep
    /// harness: events are only ever appended, so comparing each step's new events and
    /// the rest of the save is comparing the whole save, without writing the whole log
    /// again at every step).
    fn to_json_since(&self, since: usize) -> PyResult<String> {
        let mut st = self.inner.clone();
        guarded(|| {
            st.events = st.events.iter_from(since).cloned().collect();
            Ok(crate::serialize::dumps(&st))
        })
    }

    /// A seat's score by source (`Game.score_breakdown`).
    fn score_breakdown<'py>(&self, py: Python<'py>, seat: i64) -> PyResult<Bound<'py, PyDict>> {
        let p = self.seat(seat)?;
        let b = guarded(|| Ok(crate::scoring::breakdown(&self.inner, p)))?;
        let d = PyDict::new(py);
        d.set_item("vp_tokens", b.vp_tokens)?;
        d.set_item("advancements", b.advancements)?;
        d.set_item("vales", b.vales)?;
        d.set_item("negative_vp", b.negative_vp)?;
        d.set_item("curse_tokens", b.curse_tokens)?;
        d.set_item("total", b.total)?;
        d.set_item("tiebreak", b.tiebreak)?;
        Ok(d)
    }

    /// Each seat's total points (`Game.scores`).
    fn scores(&self) -> PyResult<Vec<i64>> {
        guarded(|| Ok(crate::scoring::scores(&self.inner)))
    }

    /// The winning seats once the game is over, else `[]` (`Game.winners`).
    fn winners(&self) -> PyResult<Vec<u32>> {
        if !self.inner.over {
            return Ok(Vec::new());
        }
        guarded(|| Ok(crate::scoring::winners(&self.inner).into_iter().map(u32::from).collect()))
    }

    /// The seat that must act now (None once the game is over).
    #[getter]
    fn current_player(&self) -> Option<u8> {
        crate::flow::acting_player(&self.inner)
    }

    /// The phase (`Game.phase`).
    #[getter]
    fn phase(&self) -> &'static str {
        crate::game::phase(&self.inner)
    }

    /// Every action legal now, as notation, in the Python engine's order.
    fn legal_actions(&mut self) -> PyResult<Vec<String>> {
        Ok(self.legal_now()?.iter().map(ToString::to_string).collect())
    }

    /// Every action legal now as `(verb, args)`, in the Python engine's order (what
    /// `Action(verb, tuple(args))` is built from).
    fn legal_parts(&mut self) -> PyResult<Vec<(&'static str, Vec<String>)>> {
        Ok(self.legal_now()?.iter().map(|n| (n.verb.word(), n.args.iter().map(|a| a.to_string()).collect())).collect())
    }

    /// Apply an action given as notation (`Game.apply_action`): `InvalidActionError` for
    /// text that is not notation, `IllegalActionError` for an action not legal now; either
    /// way, and on a bug, the game is unchanged.
    fn apply_action(&mut self, py: Python<'_>, action: &str) -> PyResult<()> {
        let notation = action.parse::<Notation>().map_err(|e| invalid_action(py, &e))?;
        let legal = self.legal_now()?.to_vec();
        self.change(|next| crate::game::apply_action(next, &notation, &legal).map_err(IllegalActionError::new_err))
    }

    /// Apply the `index`-th of the legal actions now (the order of `legal_actions`):
    /// the facade's fast path once Python has found the action among them. `IndexError`
    /// if there is no such action; the game is then, and on a bug, unchanged.
    fn apply_index(&mut self, index: usize) -> PyResult<()> {
        let legal = self.legal_now()?;
        let Some(action) = legal.get(index).cloned() else {
            return Err(pyo3::exceptions::PyIndexError::new_err(format!(
                "no legal action {index}: {} are legal now",
                legal.len()
            )));
        };
        self.change(|next| {
            next.history.push(action.to_string().into());
            crate::flow::apply_action(next, &action);
            Ok(())
        })
    }

    /// Why an action (notation) is not legal now, in `IllegalActionError`'s words
    /// (`Game._why_illegal`).
    fn why_illegal(&mut self, py: Python<'_>, action: &str) -> PyResult<String> {
        let notation = action.parse::<Notation>().map_err(|e| invalid_action(py, &e))?;
        let legal = self.legal_now()?.to_vec();
        let st = &self.inner;
        guarded(|| Ok(crate::game::why_illegal(st, &notation, &legal)))
    }

    /// The number of players.
    #[getter]
    fn players(&self) -> usize {
        self.inner.players.len()
    }

    /// The round (`State.round`).
    #[getter]
    fn round(&self) -> i64 {
        self.inner.round
    }

    /// Turns begun so far (`State.turn_number`).
    #[getter]
    fn turn_number(&self) -> i64 {
        self.inner.turn_number
    }

    /// VP tokens left in the pool (`State.vp_pool`).
    #[getter]
    fn vp_pool(&self) -> i64 {
        self.inner.vp_pool
    }

    /// Every action applied so far, as notation (`Game.history`).
    #[getter]
    fn history(&self) -> Vec<String> {
        self.inner.history.iter().map(|a| a.to_string()).collect()
    }

    /// The events logged so far.
    #[getter]
    fn event_count(&self) -> usize {
        self.inner.events.len()
    }

    /// The winners as the game stands, over or not (`scoring.winners`).
    fn winners_now(&self) -> PyResult<Vec<u32>> {
        guarded(|| Ok(crate::scoring::winners(&self.inner).into_iter().map(u32::from).collect()))
    }

    /// Set up a new game (the twin of `new_game` once Python has checked its options and
    /// resolved the catalogue): `ValueError` with Python's messages for an unknown rule set,
    /// a player count outside 2-4 or leaders the catalogue cannot deal.
    #[staticmethod]
    #[pyo3(signature = (catalogue, ruleset, players, seed, leaders = false, finish_turn = false))]
    fn new_game(
        catalogue: &PyCatalogue,
        ruleset: &str,
        players: i64,
        seed: &Bound<'_, PyAny>,
        leaders: bool,
        finish_turn: bool,
    ) -> PyResult<PyState> {
        let rs = crate::rulesets::get_ruleset(ruleset).map_err(PyValueError::new_err)?;
        let seed = seed_of(seed)?;
        let players = u8::try_from(players)
            .map_err(|_| PyValueError::new_err(format!("Mystic Vale is for 2 to 4 players, not {players}")))?;
        let cat = catalogue.inner.clone();
        guarded(|| {
            crate::game::new_game(cat, rs, players, seed, leaders, finish_turn)
                .map(PyState::of)
                .map_err(PyValueError::new_err)
        })
    }

    /// Run only the next scheduled step (no run loop), for step-by-step comparisons with
    /// the Python engine; its kind, or None when no step waits.
    fn run_one_step(&mut self) -> PyResult<Option<String>> {
        self.change(|next| {
            let Some(s) = next.steps.pop() else { return Ok(None) };
            crate::registry::run_step(next, &s);
            Ok(Some(s.kind.to_string()))
        })
    }

    /// Apply an action given as notation without checking it and without running the
    /// steps that follow: the open decision's (or the phase's) own work only, for
    /// step-by-step comparisons with the Python engine. The action is recorded in the
    /// history first, as `apply_action` does.
    fn apply_only(&mut self, py: Python<'_>, action: &str) -> PyResult<()> {
        let notation = action.parse::<Notation>().map_err(|e| invalid_action(py, &e))?;
        self.change(|next| {
            next.history.push(notation.to_string().into());
            crate::flow::apply_without_run(next, &notation);
            Ok(())
        })
    }

    /// Is the game over?
    fn is_over(&self) -> bool {
        self.inner.over
    }

    /// A copy (`Game.clone`), its legal actions known if these are.
    fn clone(&self) -> PyState {
        PyState { inner: self.inner.clone(), legal: self.legal.clone() }
    }

    /// What `seat` may know (None: a spectator) as Python objects, the Python engine's
    /// observation (`Game.observe`); `ValueError` for a seat the game does not have.
    #[pyo3(signature = (seat))]
    fn observe<'py>(&self, py: Python<'py>, seat: Option<i64>) -> PyResult<Bound<'py, PyAny>> {
        let viewer = seat.map(|s| self.seat(s)).transpose()?;
        let obs = guarded(|| Ok(crate::observation::observe(&self.inner, viewer)))?;
        to_py(py, &obs)
    }

    /// The readable event log from event `since` on as `seat` may see it (`Game.log`).
    #[pyo3(signature = (seat, since = 0))]
    fn log<'py>(&self, py: Python<'py>, seat: Option<i64>, since: i64) -> PyResult<Bound<'py, PyAny>> {
        let log = guarded(|| Ok(crate::observation::visible_log(&self.inner, seat, since)))?;
        to_py(py, &log)
    }

    /// A full state consistent with what `viewer` knows (None: a spectator), everything
    /// hidden from it resampled from `Rng(seed)`'s `stream` (`Game.determinize`).
    #[pyo3(signature = (viewer, seed, stream = "determinize"))]
    fn determinize(&self, viewer: Option<i64>, seed: &Bound<'_, PyAny>, stream: &str) -> PyResult<PyState> {
        let viewer = viewer.map(|v| self.seat(v)).transpose()?;
        let mut rng = Rng::new(seed_of(seed)?);
        let stream = Stream::from_name(stream);
        guarded(|| Ok(PyState::of(crate::determinize::determinize(&self.inner, viewer, &mut rng, &stream))))
    }

    /// [`determinize`](Self::determinize) drawing from a Python `Rng` as it stands (its
    /// seed and its `states`): the sampled state, and the generator's states after the
    /// draws, to write back into the Python `Rng` (so it goes on as Python's would).
    #[pyo3(signature = (viewer, seed, states, stream = "determinize"))]
    fn determinize_from<'py>(
        &self,
        py: Python<'py>,
        viewer: Option<i64>,
        seed: &Bound<'py, PyAny>,
        states: &Bound<'py, PyDict>,
        stream: &str,
    ) -> PyResult<(PyState, Bound<'py, PyDict>)> {
        let viewer = viewer.map(|v| self.seat(v)).transpose()?;
        let mut rng = Rng::with_states(seed_of(seed)?, stream_states(states)?);
        let stream = Stream::from_name(stream);
        let out = guarded(|| Ok(PyState::of(crate::determinize::determinize(&self.inner, viewer, &mut rng, &stream))))?;
        let after = PyDict::new(py);
        for (name, v) in rng.sorted_states() {
            after.set_item(name, v)?;
        }
        Ok((out, after))
    }
}

/// The observation of `seat` (None: a spectator) as `json.dumps(observe(...),
/// sort_keys=True)` text (`Game.observe`), for comparison with the Python engine; a
/// `ValueError` for a seat the game does not have.
#[pyfunction]
#[pyo3(signature = (state, seat))]
fn observe_json(state: &PyState, seat: Option<i64>) -> PyResult<String> {
    let n = state.inner.players.len();
    let viewer = match seat {
        None => None,
        Some(s) => Some(
            u8::try_from(s)
                .ok()
                .filter(|&p| usize::from(p) < n)
                .ok_or_else(|| PyValueError::new_err(format!("no seat {s} in a {n}-player game")))?,
        ),
    };
    guarded(|| Ok(crate::observation::observe(&state.inner, viewer).dumps()))
}

/// The readable event log from event `since` on as `seat` may see it (`Game.log`), as
/// `json.dumps(..., sort_keys=True)` text.
#[pyfunction]
#[pyo3(signature = (state, seat, since = 0))]
fn log_json(state: &PyState, seat: Option<i64>, since: i64) -> PyResult<String> {
    guarded(|| Ok(crate::observation::visible_log(&state.inner, seat, since).dumps()))
}

/// A JSON value as the Python objects `json.loads` would give for its text (dicts in the
/// value's key order, which dict equality ignores).
fn to_py<'py>(py: Python<'py>, v: &J) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        J::Null => py.None().into_bound(py),
        J::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        J::Int(i) => i.into_pyobject(py)?.into_any(),
        J::BigInt(t) => py.get_type::<PyInt>().call1((&**t,))?,
        J::Str(t) => PyString::new(py, t).into_any(),
        J::List(items) => {
            let out = PyList::empty(py);
            for x in items {
                out.append(to_py(py, x)?)?;
            }
            out.into_any()
        }
        J::Map(pairs) => {
            let out = PyDict::new(py);
            for (k, x) in pairs {
                out.set_item(&**k, to_py(py, x)?)?;
            }
            out.into_any()
        }
        J::Raw(t) => py.import("json")?.call_method1("loads", (&**t,))?,
    })
}

/// Play games `indices` of an arena run between native bots without returning to Python
/// for a decision (`bots/batch.rs`, the twin of `bots/arena.py` `play_game`): `specs` names
/// one bot per entry of the bot list, `seed` is the arena seed. Each record is a dict as
/// `play_game` returns it (`history` besides, the actions played, when asked). The GIL is
/// released while the games are played; `leaders`: with the Twilight Garden leaders.
/// `ValueError` for a bot the native core does not have, a rule set it does not know or not
/// one bot per seat.
#[pyfunction]
#[pyo3(signature = (catalogue, ruleset, players, seed, specs, indices, max_rounds = 100, history = false, leaders = false))]
#[allow(clippy::too_many_arguments)] // the arena's options, as play_game takes them
fn play_games<'py>(
    py: Python<'py>,
    catalogue: &PyCatalogue,
    ruleset: &str,
    players: i64,
    seed: &Bound<'py, PyAny>,
    specs: Vec<String>,
    indices: Vec<u64>,
    max_rounds: i64,
    history: bool,
    leaders: bool,
) -> PyResult<Bound<'py, PyList>> {
    use crate::bots::batch;
    let rs = crate::rulesets::get_ruleset(ruleset).map_err(PyValueError::new_err)?;
    let seed = seed_of(seed)?;
    let players =
        u8::try_from(players).map_err(|_| PyValueError::new_err(format!("players must be 2 to 4, not {players}")))?;
    let cat = catalogue.inner.clone();
    let arena = guarded(|| {
        batch::Arena::new(cat, rs, players, seed, specs, max_rounds)
            .map(|a| a.with_leaders(leaders))
            .map_err(PyValueError::new_err)
    })?;
    let records = py.detach(|| {
        guarded(|| {
            batch::play_games(&arena, &indices).map_err(|e| PyRuntimeError::new_err(format!("native engine bug: {e}")))
        })
    })?;
    let out = PyList::empty(py);
    for r in records {
        let d = PyDict::new(py);
        d.set_item("game", r.game)?;
        d.set_item("seed", r.seed)?;
        d.set_item("seats", r.seats)?;
        d.set_item("scores", r.scores)?;
        d.set_item("winners", r.winners)?;
        d.set_item("rounds", r.rounds)?;
        d.set_item("unfinished", r.unfinished)?;
        d.set_item("decisions", r.decisions)?;
        d.set_item("bot_seconds", r.bot_seconds)?;
        if history {
            d.set_item("history", r.history.iter().map(|a| &**a).collect::<Vec<&str>>())?;
        }
        out.append(d)?;
    }
    Ok(out)
}

// -- the native bots, one at a time (bots/: greedy's proof) ------------------------------

/// A native bot by its arena spec and seed (`bots::make_bot`), kept between decisions as a
/// Python bot is (greedy remembers the advancements it has seen and draws from its own
/// stream): `act(state)` is the index, in `state.legal_actions()`, of the action it plays.
#[pyclass(name = "NativeBot", module = "mysticvale._native")]
struct PyNativeBot {
    /// The bot (a `Mutex` only so that the class may be shared; `&mut self` reaches it
    /// without locking).
    inner: std::sync::Mutex<Box<dyn crate::bots::Bot>>,
}

#[pymethods]
impl PyNativeBot {
    #[new]
    fn new(spec: &str, seed: &Bound<'_, PyAny>) -> PyResult<PyNativeBot> {
        let seed = seed_of(seed)?;
        let inner = guarded(|| crate::bots::make_bot(spec, seed).map_err(PyValueError::new_err))?;
        Ok(PyNativeBot { inner: std::sync::Mutex::new(inner) })
    }

    /// The bot's name.
    #[getter]
    fn name(&mut self) -> &'static str {
        self.inner.get_mut().map_or("", |b| b.name())
    }

    /// The index of the action the bot plays for `seat` in `state` (`ValueError` when the
    /// seat has nothing to do), the GIL released while it thinks.
    fn act(&mut self, py: Python<'_>, state: &mut PyState, seat: i64) -> PyResult<usize> {
        let seat = state.seat(seat)?;
        let legal = state.legal_now()?.to_vec();
        let st = &state.inner;
        let bot =
            self.inner.get_mut().map_err(|_| PyRuntimeError::new_err("native engine bug: a bot panicked before"))?;
        py.detach(|| guarded(|| bot.act(&crate::bots::SeatView::new(st, seat, &legal)).map_err(PyValueError::new_err)))
    }

    /// The statistics of the last decision, as Python's `ISMCTS.last`: `iterations`,
    /// `seconds` and `root` (action -> (visits, mean reward)); `{}` for a bot that does not
    /// search, or after a forced move.
    fn last<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let bot =
            self.inner.get_mut().map_err(|_| PyRuntimeError::new_err("native engine bug: a bot panicked before"))?;
        if let Some(s) = bot.last() {
            d.set_item("iterations", s.iterations)?;
            d.set_item("seconds", s.seconds)?;
            let root = PyDict::new(py);
            for (a, visits, mean) in &s.root {
                root.set_item(a, (visits, mean))?;
            }
            d.set_item("root", root)?;
        }
        Ok(d)
    }
}

/// The value model (`bots/value_model.rs`) over a greedy evaluator of the given spec's
/// options and seed: `remember(state)` lets the evaluator see the commons (as its bot does
/// at each decision), `seat_features(state, seat)` and `win_chances(state)` are Python's
/// `ValueModel` methods (on the state the caller may see: for `win_chances` a whole game),
/// and `net_chances(state)` the value network's `win_chances` over these features.
#[pyclass(name = "ValueModel", module = "mysticvale._native")]
struct PyValueModel {
    inner: std::sync::Mutex<crate::bots::value_model::ValueModel>,
}

#[pymethods]
impl PyValueModel {
    #[new]
    #[pyo3(signature = (seed = None, spec = "greedy"))]
    fn new(seed: Option<&Bound<'_, PyAny>>, spec: &str) -> PyResult<PyValueModel> {
        let seed = match seed {
            Some(s) => seed_of(s)?,
            None => Seed::from(0),
        };
        let parts: Vec<&str> = spec.trim().split(':').map(str::trim).collect();
        let opts = crate::bots::greedy::Options::parse(parts.get(1..).unwrap_or_default(), spec)
            .map_err(PyValueError::new_err)?;
        Ok(PyValueModel { inner: std::sync::Mutex::new(crate::bots::value_model::ValueModel::new(seed, opts)) })
    }

    /// The evaluator notes the advancements in the commons.
    fn remember(&mut self, state: &PyState) -> PyResult<()> {
        let m = self.inner.get_mut().map_err(|_| PyRuntimeError::new_err("native engine bug: poisoned"))?;
        guarded(|| {
            m.remember(&state.inner);
            Ok(())
        })
    }

    /// The raw features of `seat` (its own view).
    fn seat_features(&mut self, state: &PyState, seat: i64) -> PyResult<Vec<f64>> {
        let seat = state.seat(seat)?;
        let m = self.inner.get_mut().map_err(|_| PyRuntimeError::new_err("native engine bug: poisoned"))?;
        guarded(|| Ok(m.seat_features(&state.inner, seat).to_vec()))
    }

    /// Each seat's chance of winning.
    fn win_chances(&mut self, state: &PyState) -> PyResult<Vec<f64>> {
        let m = self.inner.get_mut().map_err(|_| PyRuntimeError::new_err("native engine bug: poisoned"))?;
        guarded(|| Ok(m.win_chances(&state.inner)))
    }

    /// Each seat's chance of winning by the shipped value network over this model's
    /// features (`bots/value_net.rs`; Python's `ValueNet.win_chances`).
    fn net_chances(&mut self, state: &PyState) -> PyResult<Vec<f64>> {
        let net = crate::bots::value_net::Net::shipped().map_err(PyRuntimeError::new_err)?;
        let m = self.inner.get_mut().map_err(|_| PyRuntimeError::new_err("native engine bug: poisoned"))?;
        guarded(|| Ok(crate::bots::value_net::win_chances(net, m, &state.inner)))
    }
}

/// The extension module.
#[pymodule(gil_used = false)]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyCatalogue>()?;
    m.add_class::<PyRng>()?;
    m.add_class::<PyState>()?;
    m.add_function(wrap_pyfunction!(parse_action, m)?)?;
    m.add_function(wrap_pyfunction!(new_state_json, m)?)?;
    m.add_function(wrap_pyfunction!(save_round_trip, m)?)?;
    m.add_function(wrap_pyfunction!(observe_json, m)?)?;
    m.add_function(wrap_pyfunction!(log_json, m)?)?;
    m.add_function(wrap_pyfunction!(play_games, m)?)?;
    m.add_class::<PyNativeBot>()?;
    m.add_class::<PyValueModel>()?;
    m.add("SAVE_VERSION", crate::serialize::VERSION)?;
    m.add("CATALOGUE_FORMAT", catalogue::FORMAT)?;
    m.add("CATALOGUE_VERSION", catalogue::VERSION)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

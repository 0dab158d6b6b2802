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
use crate::rng::{Rng, Seed, Stream};
use crate::sleeve;

pyo3::import_exception!(mysticvale.errors, CatalogueError);
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
}

#[pymethods]
impl PyState {
    /// Read a save with the twin of the catalogue it names; `SaveError` for a corrupt one.
    #[staticmethod]
    fn from_json(catalogue: &PyCatalogue, text: &str) -> PyResult<PyState> {
        let cat = catalogue.inner.clone();
        guarded(|| match crate::serialize::loads(cat, text) {
            Ok(inner) => Ok(PyState { inner }),
            Err(e) => Err(SaveError::new_err(e.0)),
        })
    }

    /// The save's text, as the Python engine writes it.
    fn to_json(&self) -> PyResult<String> {
        guarded(|| Ok(crate::serialize::dumps(&self.inner)))
    }

    /// A seat's score by source (`Game.score_breakdown`).
    fn score_breakdown<'py>(&self, py: Python<'py>, seat: i64) -> PyResult<Bound<'py, PyDict>> {
        let n = self.inner.players.len();
        let p = u8::try_from(seat)
            .ok()
            .filter(|&p| usize::from(p) < n)
            .ok_or_else(|| PyValueError::new_err(format!("no seat {seat} in a {n}-player game")))?;
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

    /// Is the game over?
    fn is_over(&self) -> bool {
        self.inner.over
    }

    /// A copy (`Game.clone`).
    fn clone(&self) -> PyState {
        PyState { inner: self.inner.clone() }
    }

    /// A full state consistent with what `viewer` knows (None: a spectator), everything
    /// hidden from it resampled from `Rng(seed)`'s `stream` (`Game.determinize`).
    #[pyo3(signature = (viewer, seed, stream = "determinize"))]
    fn determinize(&self, viewer: Option<i64>, seed: &Bound<'_, PyAny>, stream: &str) -> PyResult<PyState> {
        let n = self.inner.players.len();
        let viewer = match viewer {
            None => None,
            Some(v) => Some(
                u8::try_from(v)
                    .ok()
                    .filter(|&p| usize::from(p) < n)
                    .ok_or_else(|| PyValueError::new_err(format!("no seat {v} in a {n}-player game")))?,
            ),
        };
        let mut rng = Rng::new(seed_of(seed)?);
        let stream = Stream::from_name(stream);
        guarded(|| Ok(PyState { inner: crate::determinize::determinize(&self.inner, viewer, &mut rng, &stream) }))
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
    m.add("SAVE_VERSION", crate::serialize::VERSION)?;
    m.add("CATALOGUE_FORMAT", catalogue::FORMAT)?;
    m.add("CATALOGUE_VERSION", catalogue::VERSION)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

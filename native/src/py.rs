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
use pyo3::types::{PyBool, PyDict, PyInt, PyList};

use crate::catalogue::{self, Catalogue};
use crate::errors::{self, py_repr};
use crate::rng::{Rng, Seed, Stream};

pyo3::import_exception!(mysticvale.errors, CatalogueError);

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

    /// The save's `"catalogue"` entry, as Python's `serialize.dumps` writes it.
    #[getter]
    fn save_json(&self) -> String {
        self.inner.save_json.to_string()
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

/// The extension module.
#[pymodule(gil_used = false)]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyCatalogue>()?;
    m.add_class::<PyRng>()?;
    m.add("CATALOGUE_FORMAT", catalogue::FORMAT)?;
    m.add("CATALOGUE_VERSION", catalogue::VERSION)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

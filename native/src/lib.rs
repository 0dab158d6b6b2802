//! The native twin of the mysticvale engine: the same game as `mysticvale/engine/`,
//! in Rust, step for step equal to the Python reference.
//!
//! Each module names its Python twin in its first line. Python stays the only reader of
//! the card data: it hands over the resolved catalogue as one JSON table
//! ([`catalogue::Catalogue::from_table_json`]). With the `python` feature, `py.rs` is the
//! extension module `mysticvale._native`.

pub mod actions;
pub mod card_types;
pub mod catalogue;
pub mod determinize;
pub mod errors;
pub mod leaders;
pub mod pyjson;
pub mod rng;
pub mod rulesets;
pub mod scoring;
pub mod serialize;
pub mod setup;
pub mod sleeve;
pub mod state;
pub mod zones;

#[cfg(feature = "python")]
mod py;

pub use catalogue::Catalogue;
pub use errors::CatalogueError;
pub use rng::{Rng, Seed, Stream};

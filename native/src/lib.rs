//! The native twin of the mysticvale engine: the same game as `mysticvale/engine/`,
//! in Rust, step for step equal to the Python reference.
//!
//! Each module names its Python twin in its first line. Python stays the only reader of
//! the card data: it hands over the resolved catalogue as one JSON table
//! ([`catalogue::Catalogue::from_table_json`]). With the `python` feature, `py.rs` is the
//! extension module `mysticvale._native`.

pub mod actions;
pub mod bots;
pub mod card_types;
pub mod catalogue;
pub mod chain;
pub mod determinize;
pub mod discard;
pub mod effects;
pub mod errors;
pub mod flow;
pub mod game;
pub mod harvest;
pub mod leaders;
pub mod observation;
pub mod pyjson;
pub mod registry;
pub mod rng;
pub mod rulesets;
pub mod scoring;
pub mod serialize;
pub mod setup;
pub mod sleeve;
pub mod state;
#[cfg(test)]
mod testing;
pub mod zones;

#[cfg(feature = "python")]
mod py;

pub use catalogue::Catalogue;
pub use errors::CatalogueError;
pub use rng::{Rng, Seed, Stream};

/// The allocator: the engine makes and drops many small values (step and decision data,
/// event texts, legal-action lists), and glibc's `malloc`/`free` were about a third of a
/// game's instructions under callgrind; mimalloc's small-object path is a fraction of that.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

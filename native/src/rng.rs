//! Twin of mysticvale/engine/rng.py: the game's only source of chance, named SplitMix64
//! streams seeded through BLAKE2b, bit for bit the same as the Python engine's.
//!
//! A game owns one [`Rng`] made of named sub-streams (one per player deck, one per supply
//! deck, ...), so that a shuffle in one place never changes the order of another deck.
//! A stream's whole state is one `u64`, in the save only once the stream has drawn.
#![forbid(unsafe_code)]

use std::borrow::Cow;
use std::fmt;

use blake2::digest::consts::U8;
use blake2::{Blake2b, Digest};

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function (Python's `_mix`).
#[inline]
fn mix(z: u64) -> u64 {
    let z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A stream's starting state from the game seed (its decimal text, as Python's `f"{seed}"`)
/// and the stream's name: BLAKE2b with an 8-byte digest of `"{seed}:{name}"`, read big-endian.
pub fn derive_seed(seed: &str, name: &str) -> u64 {
    let mut h = Blake2b::<U8>::new();
    h.update(seed.as_bytes());
    h.update(b":");
    h.update(name.as_bytes());
    let digest: [u8; 8] = h.finalize().into();
    u64::from_be_bytes(digest)
}

/// The name of a random stream; the engine's streams have their own variants so that
/// naming one allocates nothing, any other name (a caller's determinization stream) is text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stream {
    /// `deck{p}`: player `p`'s deck.
    Deck(u8),
    /// `adv{level}`: the supply deck of level-`level` advancements.
    Adv(u8),
    /// `vale{level}`: the supply deck of level-`level` vales.
    Vale(u8),
    /// `setup`: the first player.
    Setup,
    /// `leaders`: the leaders dealt at setup.
    Leaders,
    /// `determinize`: the default stream of a determinization.
    Determinize,
    /// Any other name.
    Named(Box<str>),
}

impl Stream {
    /// The stream's name as the Python engine writes it.
    pub fn name(&self) -> Cow<'_, str> {
        match self {
            Stream::Deck(p) => Cow::Owned(format!("deck{p}")),
            Stream::Adv(l) => Cow::Owned(format!("adv{l}")),
            Stream::Vale(l) => Cow::Owned(format!("vale{l}")),
            Stream::Setup => Cow::Borrowed("setup"),
            Stream::Leaders => Cow::Borrowed("leaders"),
            Stream::Determinize => Cow::Borrowed("determinize"),
            Stream::Named(s) => Cow::Borrowed(s),
        }
    }

    /// The stream of a name (the inverse of [`Stream::name`]).
    pub fn from_name(name: &str) -> Stream {
        fn digits(s: &str) -> Option<u8> {
            // Only the canonical decimal form maps to a variant ("deck01" stays a name).
            if s.is_empty() || (s.len() > 1 && s.starts_with('0')) || !s.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            s.parse().ok()
        }
        let known = match name {
            "setup" => Some(Stream::Setup),
            "leaders" => Some(Stream::Leaders),
            "determinize" => Some(Stream::Determinize),
            _ => None,
        };
        if let Some(s) = known {
            return s;
        }
        for (prefix, make) in [("deck", Stream::Deck as fn(u8) -> Stream), ("adv", Stream::Adv), ("vale", Stream::Vale)]
        {
            if let Some(n) = name.strip_prefix(prefix).and_then(digits) {
                return make(n);
            }
        }
        Stream::Named(name.into())
    }
}

impl fmt::Display for Stream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// The game seed: any integer, kept as its decimal text (Python seeds are unbounded).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seed(Box<str>);

impl Seed {
    /// A seed from its decimal text (an optional `-` and digits, no leading zeros);
    /// `None` for anything else.
    pub fn parse(text: &str) -> Option<Seed> {
        let digits = text.strip_prefix('-').unwrap_or(text);
        let canonical = !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && (digits == "0" || !digits.starts_with('0'))
            && text != "-0";
        canonical.then(|| Seed(text.into()))
    }

    /// The decimal text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<u64> for Seed {
    fn from(n: u64) -> Seed {
        Seed(n.to_string().into())
    }
}

impl fmt::Display for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Named SplitMix64 streams; `states` holds each stream that has drawn, in the order
/// of first use (the save writes them sorted by name, as Python's `to_dict`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    seed: Seed,
    states: Vec<(Stream, u64)>,
}

impl Rng {
    /// A fresh generator: no stream has drawn yet.
    pub fn new(seed: Seed) -> Rng {
        Rng { seed, states: Vec::new() }
    }

    /// A generator with the given stream states (from a save).
    pub fn with_states(seed: Seed, states: Vec<(Stream, u64)>) -> Rng {
        Rng { seed, states }
    }

    /// The game seed.
    pub fn seed(&self) -> &Seed {
        &self.seed
    }

    /// Every stream's state, sorted by name (Python's `Rng.to_dict()["states"]`).
    pub fn sorted_states(&self) -> Vec<(String, u64)> {
        let mut out: Vec<(String, u64)> = self.states.iter().map(|(s, v)| (s.name().into_owned(), *v)).collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    /// The next raw 64-bit draw of `stream` (Python's `_next`).
    pub fn next_u64(&mut self, stream: &Stream) -> u64 {
        let slot = self.slot(stream);
        next_of(slot)
    }

    /// The state of `stream`, started from the seed on its first use.
    fn slot(&mut self, stream: &Stream) -> &mut u64 {
        let i = match self.states.iter().position(|(s, _)| s == stream) {
            Some(i) => i,
            None => {
                let start = derive_seed(self.seed.as_str(), &stream.name());
                self.states.push((stream.clone(), start));
                self.states.len() - 1
            }
        };
        &mut self.states[i].1
    }

    /// A uniform integer in `0..n` drawn from `stream`, by rejection as Python's `below`.
    ///
    /// # Panics
    /// If `n` is 0 (Python raises `ValueError`; every caller passes a list's length >= 1).
    pub fn below(&mut self, stream: &Stream, n: u64) -> u64 {
        below_of(self.slot(stream), n)
    }

    /// Fisher-Yates shuffle of `items` in place (Python's `shuffle`).
    pub fn shuffle<T>(&mut self, stream: &Stream, items: &mut [T]) {
        if items.len() < 2 {
            return;
        }
        // One lookup of the stream for the whole shuffle: the draws are the same as one
        // `below` call each.
        let slot = self.slot(stream);
        for i in (1..items.len()).rev() {
            // i + 1 <= items.len(), which fits u64 and comes back below it.
            let j = below_of(slot, i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// The next draw of a stream whose state is `s` (SplitMix64).
fn next_of(s: &mut u64) -> u64 {
    *s = s.wrapping_add(GOLDEN);
    mix(*s)
}

/// `below(n)` on a stream whose state is `s`.
fn below_of(s: &mut u64, n: u64) -> u64 {
    assert!(n > 0, "below() needs a positive bound");
    // Python: limit = MASK - (MASK + 1) % n, where (MASK + 1) % n == 2**64 mod n.
    let limit = u64::MAX - (u64::MAX % n + 1) % n;
    loop {
        let r = next_of(s);
        if r <= limit {
            return r % n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_names_round_trip() {
        for name in ["deck0", "deck3", "adv1", "vale2", "setup", "leaders", "determinize", "deck01", "x", "adv"] {
            assert_eq!(Stream::from_name(name).name(), name);
        }
        assert_eq!(Stream::from_name("deck2"), Stream::Deck(2));
        assert_eq!(Stream::from_name("deck02"), Stream::Named("deck02".into()));
    }

    #[test]
    fn seeds_are_canonical_integers() {
        assert!(Seed::parse("0").is_some());
        assert!(Seed::parse("-17").is_some());
        assert!(Seed::parse("123456789012345678901234567890").is_some());
        for bad in ["", "-", "-0", "01", "1.5", "abc", " 1"] {
            assert!(Seed::parse(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn a_stream_draws_independently_of_others() {
        let mut a = Rng::new(Seed::from(7));
        let mut b = Rng::new(Seed::from(7));
        let first = a.next_u64(&Stream::Deck(0));
        b.next_u64(&Stream::Adv(1));
        assert_eq!(b.next_u64(&Stream::Deck(0)), first);
    }

    #[test]
    fn below_stays_in_range() {
        let mut r = Rng::new(Seed::from(1));
        for n in [1u64, 2, 3, 7, 1 << 62, u64::MAX] {
            for _ in 0..50 {
                assert!(r.below(&Stream::Setup, n) < n);
            }
        }
    }
}

//! The parts of a seat's observation the greedy bot reads, taken straight from the
//! [`State`]: the twin of the observation fields greedy.py reads (`commons`, `vale_rows`,
//! `vale_decks`, `fertile_soil`, `round`, `vp_pool`, `end_triggered`, `over`, `scores`,
//! each player's `field`, `on_deck`, `decay`, `vp_tokens`, `curse_tokens`, `vales`,
//! `owned`, `mana_token_active`, the viewer's own `deck`, `discard` and `known_top`, the
//! `turn` and the `pending` decision), without building the observation. Nothing here
//! reads what the seat may not know: another seat's cards only as its `owned` list shows
//! them (leaders never face up hidden), decks only as sorted lists.
#![forbid(unsafe_code)]

use crate::card_types::Slot;
use crate::state::{CardId, State, ValeId};

use super::plans::Offer;

/// Every card seat `p` owns, sorted by id, each with whether `viewer` sees it as an unseen
/// leader (the observation's `owned`; as `observation.owned_view`).
pub fn owned(st: &State, p: u8, viewer: u8) -> Vec<(CardId, bool)> {
    let Some(pl) = st.players.get(usize::from(p)) else { return Vec::new() };
    let ids = pl.owned_sorted();
    ids.into_iter()
        .map(|c| {
            let hidden = p != viewer
                && st.cards.get(usize::from(c)).is_some_and(|l| l.iter().any(|&x| st.cat.is_leader_copy(x)))
                && !st.seen_leaders.contains(&c)
                && !pl.field.contains(&c)
                && pl.on_deck != Some(c);
            (c, hidden)
        })
        .collect()
}

/// A list of card ids, sorted (the viewer's `deck` and `discard`).
pub fn sorted(cards: &[CardId]) -> Vec<CardId> {
    let mut out = cards.to_vec();
    out.sort_unstable();
    out
}

/// Python's `vale_value`: a vale's end VP less its negative VP, and half a VP for an
/// ability.
pub fn vale_value(st: &State, v: ValeId) -> f64 {
    let Some(vt) = st.vale_types.get(usize::from(v)).and_then(|&t| st.cat.vales.get(usize::from(t))) else {
        return 0.0;
    };
    let mut x = (vt.end_vp - vt.neg_vp) as f64;
    if !vt.text.is_empty() {
        x += 0.5;
    }
    x
}

/// A vale's (animal, forest, sky, any) cost.
pub fn vale_cost(st: &State, v: ValeId) -> [i64; 4] {
    st.vale_types.get(usize::from(v)).and_then(|&t| st.cat.vales.get(usize::from(t))).map_or([0; 4], |vt| vt.cost)
}

/// The vales on offer as (cost, value), in row order (Python's `_vales`).
pub fn vale_offers(st: &State) -> Vec<Offer> {
    st.vale_rows.iter().flatten().flatten().map(|&v| (vale_cost(st, v), vale_value(st, v))).collect()
}

/// The observation's `fertile_soil_cost`.
pub fn soil_cost(st: &State) -> i64 {
    st.cat.copy_type(st.cat.soil_copy(Slot::Top)).cost
}

/// Expected rounds still to play, from the VP pool, the vale deck and the end trigger
/// (Python's `rounds_left`).
pub fn rounds_left(st: &State) -> f64 {
    if st.end_triggered.is_some() || st.over {
        return 0.5;
    }
    let n = st.players.len() as f64;
    let rnd = st.round.max(1) as f64;
    let mut drained = 0i64;
    let mut bought = 0i64;
    for p in &st.players {
        drained += p.vp_tokens;
        bought += p.vales.len() as i64;
    }
    drained -= st.vp_reserve_taken;
    // VP tokens flow faster as decks improve: assume at least ~1 VP per player per round.
    let rate = max_of(&[drained as f64 / rnd, 1.0 * n, 0.5]);
    let by_pool = st.vp_pool as f64 / rate;
    // The game also ends when the last level-2 vale enters the commons (yucata, german).
    let vale_rate = max_of(&[bought as f64 / rnd, 0.5 * n]);
    let decks = (st.vale_decks[0].len() + st.vale_decks[1].len()) as f64;
    let by_vales = if st.ruleset.end_on_last_level2_vale { decks / vale_rate } else { 99.0 };
    let m = min_of(&[by_pool, by_vales, 25.0]);
    let x = if m > 0.5 { m } else { 0.5 };
    (x * 4.0).round_ties_even() / 4.0
}

/// Python's `max` of floats: the first largest.
fn max_of(xs: &[f64]) -> f64 {
    let mut best = xs.first().copied().unwrap_or(0.0);
    for &x in xs.iter().skip(1) {
        if x > best {
            best = x;
        }
    }
    best
}

/// Python's `min` of floats: the first smallest.
fn min_of(xs: &[f64]) -> f64 {
    let mut best = xs.first().copied().unwrap_or(0.0);
    for &x in xs.iter().skip(1) {
        if x < best {
            best = x;
        }
    }
    best
}

//! Twin of mysticvale/engine/determinize.py: sampling a full state consistent with what one
//! seat knows (for search bots). Hidden and so resampled: every deck's order (the viewer
//! keeps the cards on top of its own deck whose order it knows), the supply decks, other
//! players' cards discarded unseen, and leaders never shown. Everything visible stays.
#![forbid(unsafe_code)]

use crate::leaders::resample_hidden_leaders;
use crate::rng::{Rng, Seed, Stream};
use crate::state::{CardId, Player, State};

/// A copy of `st` with everything `viewer` cannot know resampled from `rng` (`viewer`
/// `None`: a spectator, who knows no player's private information).
pub fn determinize(st: &State, viewer: Option<u8>, rng: &mut Rng, stream: &Stream) -> State {
    let mut out = st.clone();
    for p in 0..out.players.len() {
        let p8 = p as u8;
        if Some(p8) == viewer {
            own_deck(&mut out.players[p], rng, stream);
        } else {
            other_deck(&mut out, p8, rng, stream);
        }
    }
    for deck in &mut out.adv_decks {
        deck.sort_unstable();
        rng.shuffle(stream, deck);
    }
    for deck in &mut out.vale_decks {
        deck.sort_unstable();
        rng.shuffle(stream, deck);
    }
    resample_hidden_leaders(&mut out, viewer, rng, stream);
    // The sampled world must not share the real game's future: give it a new seed.
    out.rng = Rng::new(Seed::from(rng.below(stream, 1 << 62)));
    out
}

/// The viewer's deck: the cards on top whose order it knows stay, the rest reshuffled
/// (sorted first, so the sample depends only on what the viewer knows).
fn own_deck(pl: &mut Player, rng: &mut Rng, stream: &Stream) {
    let k = pl.known_top.len();
    let n = pl.deck.len();
    let (mut hidden, known): (Vec<CardId>, Vec<CardId>) = if k > 0 && k <= n && pl.deck[n - k..] == pl.known_top[..] {
        (pl.deck[..n - k].to_vec(), pl.known_top.clone())
    } else {
        (pl.deck.clone(), Vec::new())
    };
    hidden.sort_unstable();
    rng.shuffle(stream, &mut hidden);
    hidden.extend(known);
    pl.deck = hidden;
}

/// Another player's deck, and the places in its discard pile of cards it discarded unseen:
/// one pool, dealt out again at random.
fn other_deck(st: &mut State, p: u8, rng: &mut Rng, stream: &Stream) {
    let pinned: Vec<CardId> =
        st.pending.iter().filter(|pd| pd.player == p).flat_map(|pd| pd.private.iter().copied()).collect();
    let pl = &mut st.players[usize::from(p)];
    let unseen: Vec<usize> = if pl.taken_unseen.is_empty() {
        Vec::new()
    } else {
        (0..pl.discard.len()).filter(|&i| pl.taken_unseen.contains(&pl.discard[i])).collect()
    };
    let mut deck = if unseen.is_empty() {
        pl.deck.clone()
    } else {
        // Cards that player is looking at now (a pending private decision) stay in the deck.
        let mut pool: Vec<CardId> = pl.deck.iter().copied().filter(|c| !pinned.contains(c)).collect();
        pool.extend(unseen.iter().map(|&i| pl.discard[i]));
        pool.sort_unstable();
        rng.shuffle(stream, &mut pool);
        for &i in &unseen {
            // The pool holds at least as many cards as there are unseen places.
            if let Some(c) = pool.pop() {
                pl.discard[i] = c;
            }
        }
        pl.taken_unseen = unseen.iter().map(|&i| pl.discard[i]).collect();
        pool.extend(pl.deck.iter().copied().filter(|c| pinned.contains(c)));
        pool
    };
    deck.sort_unstable();
    rng.shuffle(stream, &mut deck);
    // That player knows the order of as many cards on top of its deck as before.
    let k = pl.known_top.len();
    pl.known_top = if 0 < k && k <= deck.len() { deck[deck.len() - k..].to_vec() } else { Vec::new() };
    pl.deck = deck;
}

//! Twin of mysticvale/engine/leaders.py (so far its hidden-information part): which leader
//! cards are hidden from a seat, and resampling them for a determinization (file 003).
#![forbid(unsafe_code)]

use crate::pyjson::J;
use crate::rng::{Rng, Stream};
use crate::state::{CardId, CopyId, State};
use crate::zones::owned_cards;

/// The copy of a leader part (Python's `part_copy`): its type's first printed copy.
pub fn part_copy(st: &State, type_id: u16) -> Option<CopyId> {
    st.cat.printed_copies(type_id).first().copied()
}

/// (leader, upgraded side?) of a leader card, else `None` (Python's `leader_on`).
pub fn leader_on(st: &State, card: CardId) -> Option<(u16, bool)> {
    st.cards[usize::from(card)].iter().find_map(|&c| {
        let t = st.cat.copies[usize::from(c)].type_id;
        st.cat.leader_of(t)
    })
}

/// Leader cards player `p` holds that have never been face up (deck, discard pile, set
/// aside), in id order.
pub fn unseen_leaders(st: &State, p: u8) -> Vec<CardId> {
    if st.cat.copies.iter().enumerate().all(|(i, _)| !st.cat.is_leader_copy(i as u16)) {
        return Vec::new();
    }
    let pl = &st.players[usize::from(p)];
    let mut out: Vec<CardId> = [&pl.deck, &pl.discard, &pl.aside]
        .into_iter()
        .flatten()
        .copied()
        .filter(|c| !st.seen_leaders.contains(c) && st.cards[usize::from(*c)].iter().any(|&x| st.cat.is_leader_copy(x)))
        .collect();
    out.sort();
    out
}

/// For a determinization: give every leader whose identity `viewer` cannot know a leader
/// drawn at random from those it cannot rule out, starting side up, nothing sleeved.
pub fn resample_hidden_leaders(st: &mut State, viewer: Option<u8>, rng: &mut Rng, stream: &Stream) {
    if st.cat.leaders.is_empty() {
        return;
    }
    let n = st.players.len() as u8;
    let mut hidden: Vec<CardId> = Vec::new();
    for q in 0..n {
        if Some(q) != viewer {
            hidden.extend(unseen_leaders(st, q));
        }
    }
    let names = |i: u16| -> &str { &st.cat.leaders[usize::from(i)].name };
    let mut known: Vec<Box<str>> = match viewer {
        Some(v) => st.players[usize::from(v)].dealt_leaders.clone(),
        None => Vec::new(),
    };
    for q in 0..n {
        for c in owned_cards(st, q) {
            if !hidden.contains(&c) {
                if let Some((l, _)) = leader_on(st, c) {
                    known.push(names(l).into());
                }
            }
        }
    }
    let mut pool: Vec<u16> = (0u16..).zip(&st.cat.leaders).map(|(i, _)| i).collect();
    pool.sort_by(|&a, &b| names(a).cmp(names(b)));
    pool.retain(|&i| !known.iter().any(|k| **k == *names(i)));
    rng.shuffle(stream, &mut pool);
    for &c in &hidden {
        // The pool holds every leader the viewer cannot rule out, at least one per hidden card.
        let Some(l) = pool.pop() else { break };
        let parts: Vec<CopyId> =
            st.cat.leaders[usize::from(l)].start.iter().filter_map(|&t| part_copy(st, t)).collect();
        st.cards[usize::from(c)] = parts.into();
    }
    // Pairs still to be chosen during setup, and what others were dealt.
    for q in 0..n {
        if Some(q) != viewer {
            st.players[usize::from(q)].dealt_leaders.clear();
        }
    }
    let cat = st.cat.clone();
    let pair = |pool: &mut Vec<u16>| -> J {
        let a = pool.pop().map_or(J::Null, |l| J::from(&*cat.leaders[usize::from(l)].name));
        let b = pool.pop().map_or(J::Null, |l| J::from(&*cat.leaders[usize::from(l)].name));
        J::List(vec![a, b])
    };
    let set_leaders = |data: &mut Vec<(Box<str>, J)>, v: J| match data.iter_mut().find(|(k, _)| &**k == "leaders") {
        Some(slot) => slot.1 = v,
        None => data.push(("leaders".into(), v)),
    };
    for s in &mut st.steps {
        if &*s.kind == "leader_choose" && Some(s.player) != viewer {
            let v = pair(&mut pool);
            set_leaders(&mut s.data, v);
        }
    }
    for pd in &mut st.pending {
        if &*pd.kind == "choose_leader" && Some(pd.player) != viewer {
            let v = pair(&mut pool);
            set_leaders(&mut pd.data, v);
        }
    }
}

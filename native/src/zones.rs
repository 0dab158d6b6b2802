//! Twin of mysticvale/engine/zones.py: moving cards between zones, logging events.
//! Small helpers every rules module uses; nothing here decides anything.
#![forbid(unsafe_code)]

use std::sync::Arc;

use crate::pyjson::J;
use crate::rng::Stream;
use crate::sleeve::{compute_stats, SleeveStats};
use crate::state::{CardId, Event, State};

/// A card's stats (Python's `zones.stats`).
pub fn stats(st: &State, card: CardId) -> SleeveStats {
    compute_stats(&st.cat, &st.cards[usize::from(card)])
}

/// A short readable name for a card: `#7 ` and its active advancements, or `Blank`.
pub fn card_name(st: &State, card: CardId) -> String {
    let layers = &st.cards[usize::from(card)];
    if layers.is_empty() {
        return format!("#{card} Blank");
    }
    let s = stats(st, card);
    let names: Vec<&str> = s.active_layers.iter().map(|&i| &*st.cat.copy_type(layers[usize::from(i)]).name).collect();
    format!("#{card} {}", names.join(" + "))
}

/// Record an event (Python's `log`).
pub fn log(st: &mut State, kind: &'static str, player: Option<u8>, text: String, data: Vec<(Box<str>, J)>) {
    st.events.push(Arc::new(Event {
        kind: kind.into(),
        player,
        text,
        private_to: None,
        public_text: String::new(),
        data,
    }));
}

/// An empty deck is refilled by shuffling the discard pile (file 000).
pub fn shuffle_discard_into_deck(st: &mut State, p: u8) {
    let pl = &mut st.players[usize::from(p)];
    let mut deck = std::mem::take(&mut pl.discard);
    deck.append(&mut pl.deck);
    st.rng.shuffle(&Stream::Deck(p), &mut deck);
    pl.deck = deck;
    pl.known_top.clear();
    pl.taken_unseen.clear();
    log(st, "shuffle", Some(p), format!("Player {} shuffles the discard pile into a new deck.", p + 1), Vec::new());
}

/// An empty deck that a card is needed from is refilled from the discard pile.
pub fn ensure_deck(st: &mut State, p: u8) {
    let pl = &st.players[usize::from(p)];
    if pl.deck.is_empty() && !pl.discard.is_empty() {
        shuffle_discard_into_deck(st, p);
    }
}

/// Take the top card of the deck (refilling from the discard pile if empty).
pub fn take_top(st: &mut State, p: u8) -> Option<CardId> {
    ensure_deck(st, p);
    let pl = &mut st.players[usize::from(p)];
    let c = pl.deck.pop()?;
    if let Some(&top) = pl.known_top.last() {
        if top == c {
            pl.known_top.pop();
        } else {
            pl.known_top.clear();
        }
    }
    Some(c)
}

/// Turn over the top card of the deck as the new on-deck card.
pub fn reveal(st: &mut State, p: u8) {
    let card = take_top(st, p);
    st.players[usize::from(p)].on_deck = card;
    if let Some(c) = card {
        mark_seen(st, c);
        let text = format!("Player {} reveals {} on deck.", p + 1, card_name(st, c));
        log(st, "reveal", Some(p), text, vec![("card".into(), J::Int(i64::from(c)))]);
    }
}

/// A card is face up for everyone: where it is is public again, and if it is a leader,
/// which one is public from now on.
pub fn mark_seen(st: &mut State, card: CardId) {
    for pl in &mut st.players {
        if let Some(i) = pl.taken_unseen.iter().position(|&c| c == card) {
            pl.taken_unseen.remove(i);
        }
    }
    if !st.cat.leaders.is_empty()
        && !st.seen_leaders.contains(&card)
        && st.cards[usize::from(card)].iter().any(|&c| st.cat.is_leader_copy(c))
    {
        st.seen_leaders.push(card);
    }
}

/// Every card a player owns, wherever it is: deck, field, discard, aside, on deck (Python's
/// `owned_cards`, in its order).
pub fn owned_cards(st: &State, p: u8) -> Vec<CardId> {
    let pl = &st.players[usize::from(p)];
    let mut out: Vec<CardId> = Vec::with_capacity(pl.deck.len() + pl.field.len() + pl.discard.len() + 1);
    out.extend(&pl.deck);
    out.extend(&pl.field);
    out.extend(&pl.discard);
    out.extend(&pl.aside);
    out.extend(pl.on_deck);
    out
}

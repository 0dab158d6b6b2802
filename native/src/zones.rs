//! Twin of mysticvale/engine/zones.py: moving cards between zones, logging events.
//! Small helpers every rules module uses; nothing here decides anything.
#![forbid(unsafe_code)]

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, Weak};

use crate::card_types::Symbol;
use crate::catalogue::Catalogue;
use crate::pyjson::{Key, J};
use crate::rng::Stream;
use crate::sleeve::{compute_stats, SleeveStats};
use crate::state::{CardId, CopyId, Event, Pending, State, Step};

/// A step's or a decision's data (Python's dict, in insertion order).
pub type Data = Vec<(Key, J)>;

/// How many cards' stats one catalogue's cache holds before it starts again (Python's
/// `remember` bound on `Catalogue._stats`).
const STATS_LIMIT: usize = 50_000;

/// Stats by layers, per catalogue: a card's stats depend only on its layers, and a card
/// gets new layers as a new `Arc` (sleeving), so the layers are the key (Python's
/// `Catalogue._stats` memo). Each catalogue is held by a `Weak`, which keeps its address
/// from being reused while its entry lives; entries of catalogues no longer used are
/// dropped. Per thread, so no lock.
type StatsCache = Vec<(Weak<Catalogue>, HashMap<Arc<[CopyId]>, Arc<SleeveStats>, BuildLayersHasher>)>;

/// A hasher for the few small ints of a card's layers (the multiply-rotate step of
/// rustc's FxHasher): the memo is looked up for every card shown, so SipHash's strength
/// against chosen keys is not needed here and its cost is.
#[derive(Clone, Copy, Default)]
pub struct LayersHasher(u64);

impl std::hash::Hasher for LayersHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u16(&mut self, v: u16) {
        self.write_u64(u64::from(v));
    }

    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// Builds [`LayersHasher`]s.
type BuildLayersHasher = std::hash::BuildHasherDefault<LayersHasher>;

thread_local! {
    static STATS: RefCell<StatsCache> = const { RefCell::new(Vec::new()) };
}

/// A card's stats, shared (Python's `zones.stats`, memoised by layers as Python's
/// catalogue memoises them); an id no card has (a corrupt save) reads as a card with no
/// layers.
pub fn card_stats(st: &State, card: CardId) -> Arc<SleeveStats> {
    let Some(layers) = st.cards.get(usize::from(card)) else { return Arc::new(compute_stats(&st.cat, &[])) };
    if let Some((known, s)) = st.stats_memo.get(usize::from(card)) {
        if Arc::ptr_eq(known, layers) {
            return Arc::clone(s);
        }
    }
    memo_stats(st, layers)
}

/// Renew the state's own cache of card stats ([`State::stats_memo`]) where a card's
/// layers changed (or the cache is new): after that [`card_stats`] reads each card's stats
/// without a lookup in the catalogue's memo. Nothing else changes.
pub fn refresh_stats(st: &mut State) {
    let fresh = st.stats_memo.len() == st.cards.len()
        && st.stats_memo.iter().zip(st.cards.iter()).all(|((known, _), layers)| Arc::ptr_eq(known, layers));
    if fresh {
        return;
    }
    let memo: Vec<(Arc<[CopyId]>, Arc<SleeveStats>)> = st
        .cards
        .iter()
        .enumerate()
        .map(|(i, layers)| match st.stats_memo.get(i) {
            Some((known, s)) if Arc::ptr_eq(known, layers) => (Arc::clone(known), Arc::clone(s)),
            _ => (Arc::clone(layers), memo_stats(st, layers)),
        })
        .collect();
    st.stats_memo = Arc::new(memo);
}

/// A card's stats by its layers from the catalogue's memo ([`StatsCache`]).
fn memo_stats(st: &State, layers: &Arc<[CopyId]>) -> Arc<SleeveStats> {
    STATS.with(|cell| {
        let mut caches = cell.borrow_mut();
        let at = caches.iter().position(|(cat, _)| std::ptr::eq(cat.as_ptr(), Arc::as_ptr(&st.cat)));
        let i = match at {
            Some(i) => i,
            None => {
                caches.retain(|(cat, _)| cat.strong_count() > 0);
                caches.push((Arc::downgrade(&st.cat), HashMap::default()));
                caches.len() - 1
            }
        };
        let Some((_, memo)) = caches.get_mut(i) else { return Arc::new(compute_stats(&st.cat, layers)) };
        if let Some(s) = memo.get(&layers[..]) {
            return Arc::clone(s);
        }
        if memo.len() >= STATS_LIMIT {
            memo.clear();
        }
        let s = Arc::new(compute_stats(&st.cat, layers));
        memo.insert(Arc::clone(layers), Arc::clone(&s));
        s
    })
}

/// A card's stats (Python's `zones.stats`), as an owned copy of [`card_stats`] (which
/// shares them without copying).
pub fn stats(st: &State, card: CardId) -> SleeveStats {
    SleeveStats::clone(&card_stats(st, card))
}

/// A short readable name for a card: `#7 ` and its active advancements, or `Blank`.
pub fn card_name(st: &State, card: CardId) -> String {
    let mut out = String::with_capacity(40);
    push_card_name(&mut out, st, card);
    out
}

/// Append [`card_name`] to `out` (no text built on the way).
pub fn push_card_name(out: &mut String, st: &State, card: CardId) {
    out.push('#');
    push_int(out, i64::from(card));
    let layers = st.cards.get(usize::from(card)).map_or(&[][..], |l| &l[..]);
    if layers.is_empty() {
        out.push_str(" Blank");
        return;
    }
    out.push(' ');
    let s = card_stats(st, card);
    for (n, copy) in s.active_layers.iter().filter_map(|&i| layers.get(usize::from(i))).enumerate() {
        if n > 0 {
            out.push_str(" + ");
        }
        out.push_str(&st.cat.copy_type(*copy).name);
    }
}

/// Append an int's decimal digits to `out` (as `format!("{n}")` writes them).
pub fn push_int(out: &mut String, n: i64) {
    if n < 0 {
        out.push('-');
    }
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut v = n.unsigned_abs();
    loop {
        i -= 1;
        // `v % 10` is below 10: the cast keeps it.
        digits[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        out.push(char::from(d));
    }
}

/// Record an event (Python's `log`).
pub fn log(st: &mut State, kind: &'static str, player: Option<u8>, text: String, data: Vec<(Key, J)>) {
    st.events.push(Event { kind: kind.into(), player, text, private_to: None, public_text: String::new(), data });
}

/// Record an event whose text only `private_to` may read; the others read `public_text`
/// (Python's `log(..., private_to=p, public_text=...)`).
pub fn log_private(
    st: &mut State,
    kind: &'static str,
    player: Option<u8>,
    text: String,
    private_to: u8,
    public_text: String,
    data: Data,
) {
    st.events.push(Event { kind: kind.into(), player, text, private_to: Some(private_to), public_text, data });
}

/// Run `steps` in the given order before anything already scheduled (Python's `schedule`).
pub fn schedule(st: &mut State, steps: impl IntoIterator<Item = Step, IntoIter: DoubleEndedIterator>) {
    st.steps.extend(steps.into_iter().rev());
}

/// Open a decision (Python's `ask`).
pub fn ask(st: &mut State, kind: &str, player: u8, private: Vec<CardId>, data: Data) {
    st.pending.push(Pending { kind: kind.into(), player, data, private });
}

/// A step with its data.
pub fn step(kind: &'static str, player: u8, data: Data) -> Step {
    Step { kind: std::borrow::Cow::Borrowed(kind), player, data }
}

/// Shuffle a player's deck (its known order is gone).
pub fn shuffle_deck(st: &mut State, p: u8) {
    let pl = &mut st.players[usize::from(p)];
    st.rng.shuffle(&Stream::Deck(p), &mut pl.deck);
    pl.known_top.clear();
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

/// The log's sentence "Player N<verb><card's name><tail>", e.g. "Player 1 reveals Seedling on deck."
pub fn player_card_sentence(st: &State, p: u8, verb: &str, card: CardId, tail: &str) -> String {
    let mut text = String::with_capacity(64);
    text.push_str("Player ");
    push_int(&mut text, i64::from(p) + 1);
    text.push_str(verb);
    push_card_name(&mut text, st, card);
    text.push_str(tail);
    text
}

/// Turn over the top card of the deck as the new on-deck card.
pub fn reveal(st: &mut State, p: u8) {
    let card = take_top(st, p);
    st.players[usize::from(p)].on_deck = card;
    if let Some(c) = card {
        mark_seen(st, c);
        let text = player_card_sentence(st, p, " reveals ", c, " on deck.");
        log(st, "reveal", Some(p), text, vec![("card".into(), J::Int(i64::from(c)))]);
    }
}

/// Remove a specific card from the deck (a search); known order below it is kept. Until
/// it is next face up ([`mark_seen`]), only its player knows where it went.
pub fn take_from_deck(st: &mut State, p: u8, card: CardId) {
    let pl = &mut st.players[usize::from(p)];
    if let Some(i) = pl.deck.iter().position(|&c| c == card) {
        pl.deck.remove(i);
    }
    if pl.known_top.contains(&card) {
        pl.known_top.clear();
    }
    if !pl.taken_unseen.contains(&card) {
        pl.taken_unseen.push(card);
    }
}

/// Put a card on top of its player's discard pile.
pub fn discard_card(st: &mut State, p: u8, card: CardId) {
    st.players[usize::from(p)].discard.push(card);
}

/// Discard a card the player looked at privately from the top of the deck; other seats
/// learn only that a card was discarded (file 003: "you do not need to reveal").
pub fn discard_looked_at(st: &mut State, p: u8, card: CardId) {
    take_from_deck(st, p, card);
    discard_card(st, p, card);
    let text = format!("Player {} discards {} from the top of the deck.", p + 1, card_name(st, card));
    let public = format!("Player {} discards a card from the top of the deck.", p + 1);
    log_private(st, "ability", Some(p), text, p, public, Vec::new());
}

/// Discard a card found by searching the face-down deck; other seats learn only that a
/// card was discarded (file 000: no one may look at a deck unless an ability allows it).
pub fn discard_searched(st: &mut State, p: u8, card: CardId) {
    take_from_deck(st, p, card);
    discard_card(st, p, card);
    let text = format!("Player {} searches the deck and discards {}.", p + 1, card_name(st, card));
    let public = format!("Player {} searches the deck and discards a card.", p + 1);
    log_private(st, "ability", Some(p), text, p, public, Vec::new());
}

/// The decay a card shows for its player (Aether Tree may have cancelled some).
pub fn card_decay(st: &State, p: u8, card: CardId) -> i64 {
    let s = card_stats(st, card);
    if st.players[usize::from(p)].aether_cards.contains(&card) {
        return s.aether_decay;
    }
    s.get(Symbol::Decay)
}

fn showing(st: &State, p: u8) -> impl Iterator<Item = CardId> + '_ {
    let pl = &st.players[usize::from(p)];
    pl.field.iter().copied().chain(pl.on_deck)
}

/// Decay showing in the field and on the on-deck card, each growth cancelling one.
pub fn net_decay(st: &State, p: u8) -> i64 {
    let aether = &st.players[usize::from(p)].aether_cards;
    showing(st, p)
        .map(|c| {
            let s = card_stats(st, c);
            if aether.contains(&c) {
                s.aether_net
            } else {
                s.net
            }
        })
        .sum()
}

/// Decay symbols showing in the field and on the on-deck card, growth not counted (the
/// German rules' count, file 004).
pub fn decay_symbols(st: &State, p: u8) -> i64 {
    showing(st, p).map(|c| card_decay(st, p, c)).sum()
}

/// Every symbol summed over the field, in `SYMBOLS` order.
pub fn field_totals(st: &State, p: u8) -> [i64; 10] {
    let mut out = [0i64; 10];
    for &c in &st.players[usize::from(p)].field {
        let s = card_stats(st, c);
        for (o, v) in out.iter_mut().zip(s.symbols) {
            *o += v;
        }
    }
    out
}

/// One symbol summed over the field.
pub fn field_sum(st: &State, p: u8, symbol: Symbol) -> i64 {
    field_totals(st, p)[symbol as usize]
}

/// Gain VP tokens from the pool (from the reserve once the pool is empty, or when a rule
/// says so). Emptying the pool triggers the end of the game.
pub fn gain_vp(st: &mut State, p: u8, n: i64, from_reserve: bool, why: &str) {
    if n <= 0 {
        return;
    }
    let from_pool = if from_reserve { 0 } else { n.min(st.vp_pool) };
    st.vp_pool -= from_pool;
    st.vp_reserve_taken += n - from_pool;
    st.players[usize::from(p)].vp_tokens += n;
    let why = if why.is_empty() { String::new() } else { format!(" ({why})") };
    log(st, "vp", Some(p), format!("Player {} gains {n} VP{why}.", p + 1), vec![("amount".into(), J::Int(n))]);
    if from_pool > 0 && st.vp_pool == 0 && st.end_triggered.is_none() {
        st.end_triggered = Some("vp_pool".into());
        log(st, "end_triggered", None, "The VP pool is empty: the game ends after this round.".into(), Vec::new());
    }
}

/// Gain curse tokens (Twilight Garden).
pub fn gain_curse(st: &mut State, p: u8, n: i64, why: &str) {
    if n <= 0 {
        return;
    }
    st.players[usize::from(p)].curse_tokens += n;
    st.curse_supply_taken += n;
    let why = if why.is_empty() { String::new() } else { format!(" ({why})") };
    log(
        st,
        "curse",
        Some(p),
        format!("Player {} gains {n} curse token(s){why}.", p + 1),
        vec![("amount".into(), J::Int(n))],
    );
}

/// The value at `key` of a step's or decision's data.
pub fn get<'a>(d: &'a Data, key: &str) -> Option<&'a J> {
    d.iter().find(|(k, _)| &**k == key).map(|(_, v)| v)
}

/// The int at `key` (0 when missing or not an int: the engine writes every key it reads).
pub fn int(d: &Data, key: &str) -> i64 {
    match get(d, key) {
        Some(J::Int(v)) => *v,
        _ => 0,
    }
}

/// A card id at `key`.
pub fn card_at(d: &Data, key: &str) -> CardId {
    CardId::try_from(int(d, key)).unwrap_or_default()
}

/// The text at `key` ("" when missing).
pub fn text<'a>(d: &'a Data, key: &str) -> &'a str {
    match get(d, key) {
        Some(J::Str(v)) => v,
        _ => "",
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
    st.players[usize::from(p)].owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card_types::Slot;
    use crate::serialize::loads;

    use crate::testing::fixture as read;

    #[test]
    fn card_names_and_ints_are_written_as_format_writes_them() {
        for n in [0i64, 7, 10, 99, 65_535, -1, -40, i64::MAX, i64::MIN] {
            let mut out = String::new();
            push_int(&mut out, n);
            assert_eq!(out, format!("{n}"));
        }
        let cat = Catalogue::shared(&read("catalogue_base.json"), "base").unwrap();
        let mut st = loads(Arc::clone(&cat), &read("save_base_midgame.json")).unwrap();
        let cursed = cat.copy_id("Cursed Land", Slot::Top).unwrap();
        Arc::make_mut(&mut st.cards)[3] = Arc::from(vec![cursed, cat.soil_copy(Slot::Middle)]);
        Arc::make_mut(&mut st.cards)[4] = Arc::from(Vec::new());
        assert_eq!(card_name(&st, 3), "#3 Cursed Land + Fertile Soil");
        assert_eq!(card_name(&st, 4), "#4 Blank");
    }

    #[test]
    fn memoised_stats_follow_a_cards_layers_and_its_catalogue() {
        let cat = Catalogue::shared(&read("catalogue_base.json"), "base").unwrap();
        let mut st = loads(Arc::clone(&cat), &read("save_base_midgame.json")).unwrap();
        for card in 0..u16::try_from(st.cards.len()).unwrap() {
            assert_eq!(*card_stats(&st, card), compute_stats(&cat, &st.cards[usize::from(card)]));
            assert_eq!(stats(&st, card), *card_stats(&st, card));
        }
        let cursed = cat.copy_id("Cursed Land", Slot::Top).unwrap();
        Arc::make_mut(&mut st.cards)[0] = Arc::from(vec![cursed]);
        assert_eq!(card_stats(&st, 0).get(Symbol::Decay), 1);
        Arc::make_mut(&mut st.cards)[0] = Arc::from(vec![cursed, cat.soil_copy(Slot::Middle)]);
        assert_eq!(card_stats(&st, 0).get(Symbol::Mana), 2, "new layers, new stats");
        // The same layers in another catalogue (the same table read again) are its own.
        let other = Catalogue::shared(&read("catalogue_base.json"), "base").unwrap();
        let mut st2 = st.clone();
        st2.cat = Arc::clone(&other);
        assert_eq!(*card_stats(&st2, 0), compute_stats(&other, &st2.cards[0]));
        assert_eq!(*card_stats(&st, u16::MAX), compute_stats(&cat, &[]), "no such card: no layers");
    }
}

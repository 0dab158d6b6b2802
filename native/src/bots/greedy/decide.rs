//! The greedy bot's answers to the pending decisions of the base game (twin of greedy.py's
//! `_decide_prep_stop`, `_decide_spoil_guard`, `_decide_look_top`, `_decide_discard_field`,
//! `_decide_search_deck`, `_decide_sleeve` and `_sleeve_score`; `_decide_order` is the
//! lookahead). `None` sends the decision to the lookahead.
#![forbid(unsafe_code)]

use super::cards::CardBase;
use super::harvest::card_arg;
use super::push::{groups, Agg, Memo, Reveals, SPOIL_AT};
use super::text::lower;
use super::values::harvest_value;
use super::view;
use super::{all, find, Greedy};
use crate::actions::{Notation, Verb};
use crate::card_types::Symbol;
use crate::state::State;

/// `_decide_spoil_guard`: Peacekeeper Druid (a guard on a card) never loses; Aether Tree
/// costs a vale's VP, so it goes to the lookahead.
pub(super) fn spoil_guard(legal: &[Notation]) -> Option<usize> {
    legal.iter().position(|a| a.verb == Verb::Guard && a.args.first().is_some_and(|t| t.starts_with('#')))
}

/// The advancement being sleeved as the bot knows it: (symbols, lower-case text).
struct Sleeving {
    decay: i64,
    growth: i64,
    text: String,
}

/// `_sleeve_score`: how good a field card is as the home of an advancement.
fn sleeve_score(card: &CardBase, copy: &Sleeving) -> f64 {
    let text = &copy.text;
    let (decay, growth) = (card.decay, card.growth);
    let mut score = 0.0;
    if text.contains("no decay") {
        score += 3.0 * decay as f64; // Lifebringer Seed cancels a card's decay
    } else if text.contains("no more than") && text.contains("decay") {
        score += 3.0 * (decay - 1).max(0) as f64;
    } else if text.contains("for each") && text.contains("on this card") {
        // Ongoing bonuses per symbol on this card (Grovetender, Dawnsinger).
        for k in ["guardian", "sky", "animal", "forest", "mana"] {
            if text.contains(k) {
                let n = match k {
                    "guardian" => card.guardian,
                    "mana" => card.mana_symbols,
                    "sky" => card.spirits[2],
                    "animal" => card.spirits[0],
                    _ => card.spirits[1],
                };
                score += 2.0 * n as f64;
            }
        }
    }
    if copy.decay > 0 {
        // A decay goes best where it is cancelled or where growth already is.
        score += 1.0 * growth as f64 - 0.5 * decay as f64;
    }
    if copy.growth > 0 {
        score += 0.5 * decay as f64;
    }
    // Keep empty cards for later buys: pack onto cards with fewer free slots.
    score -= 0.1 * card.free_slots as f64;
    score
}

impl Greedy {
    /// `_decide_prep_stop` (German rules): going on is a push whose spoil costs only the
    /// prepared field, so push when the spoil odds make that push worth it, else stop.
    pub(super) fn decide_prep_stop(&mut self, st: &State, seat: u8, legal: &[Notation]) -> Option<usize> {
        let last = |v: Verb| (0..legal.len()).rev().find(|&i| legal[i].verb == v);
        let (push, stop) = (last(Verb::Push)?, last(Verb::Stop)?);
        let (now, go) = self.push_values(st, seat);
        Some(if go > now { push } else { stop })
    }

    /// `_decide_look_top` (Calm Weather): the card looked at is the next one revealed:
    /// discard it if it would spoil, or if it is worse than an average draw.
    pub(super) fn decide_look_top(&mut self, st: &State, seat: u8, legal: &[Notation]) -> Option<usize> {
        let pd = st.pending.last()?;
        let &first = pd.private.first()?;
        let top = self.card(st, first);
        let cands = all(legal);
        if crate::zones::net_decay(st, seat) + top.nd >= SPOIL_AT {
            return find(legal, &cands, Verb::Discard);
        }
        let deck = view::sorted(&st.players[usize::from(seat)].deck);
        let rest_ids: Vec<_> = deck.into_iter().filter(|&c| c != first).collect();
        let rest = self.cards_of(st, &rest_ids);
        let avg = if rest.is_empty() {
            0.0
        } else {
            let mut s = 0.0;
            for c in &rest {
                s += c.draw_value();
            }
            s / rest.len() as f64
        };
        find(legal, &cands, if top.draw_value() >= avg { Verb::Keep } else { Verb::Discard })
    }

    /// `_decide_discard_field`: the on-deck card is revealed after this ability: compare
    /// the expected value of that reveal with each field card discarded (or none).
    pub(super) fn decide_discard_field(&mut self, st: &State, seat: u8, legal: &[Notation]) -> Option<usize> {
        let me = &st.players[usize::from(seat)];
        let field_ids = me.field.clone();
        let field = self.cards_of(st, &field_ids);
        let (pool, known) = self.next_cards(st, seat);
        let table = self.buy_table(st, 2);
        let vales = view::vale_offers(st);
        let trade = st.ruleset.spirit_trade;
        let guard = field.iter().any(|c| c.guard);
        let g = groups(&pool);
        let pay = &mut self.pay;
        let mut hv = Memo::new(|a| harvest_value(&table, &vales, trade, pay, a));
        let mut best: Option<f64> = None;
        let mut best_a = None;
        for (i, a) in legal.iter().enumerate() {
            let keep: Vec<&CardBase> = match a.verb {
                Verb::Skip => field.iter().map(|c| &**c).collect(),
                Verb::Discard => {
                    let cid = card_arg(a);
                    field_ids.iter().zip(&field).filter(|(&id, _)| Some(id) != cid).map(|(_, c)| &**c).collect()
                }
                _ => continue,
            };
            let d: i64 = keep.iter().map(|c| c.nd).sum();
            let agg = Agg::of(keep.iter().copied());
            let mut r = Reveals { pool: &pool, guard, hv: &mut hv };
            let v = r.push_rec(agg, d, &g, pool.len(), &known, 1);
            let better = match best {
                None => true,
                Some(b) => v > b + 1e-9 || (a.verb == Verb::Skip && v >= b - 1e-9),
            };
            if better {
                best = Some(v);
                best_a = Some(i);
            }
        }
        best_a
    }

    /// `_decide_search_deck`: discard the worst card of the deck if it is below an average
    /// draw (thinning the deck for this cycle), else skip.
    pub(super) fn decide_search_deck(&mut self, st: &State, seat: u8, legal: &[Notation]) -> Option<usize> {
        let deck_ids = view::sorted(&st.players[usize::from(seat)].deck);
        if deck_ids.is_empty() {
            return None;
        }
        let deck = self.cards_of(st, &deck_ids);
        let mut s = 0.0;
        for c in &deck {
            s += c.draw_value();
        }
        let avg = s / deck.len() as f64;
        let mut worst: Option<f64> = None;
        let mut worst_a = None;
        for (i, a) in legal.iter().enumerate() {
            if a.verb != Verb::Discard {
                continue;
            }
            let Some(pos) = card_arg(a).and_then(|id| deck_ids.iter().position(|&x| x == id)) else { continue };
            let dv = deck[pos].draw_value();
            if worst.is_none_or(|w| dv < w) {
                worst = Some(dv);
                worst_a = Some(i);
            }
        }
        if let (Some(w), Some(a)) = (worst, worst_a) {
            if w < avg {
                return Some(a);
            }
        }
        find(legal, &all(legal), Verb::Skip).or(worst_a)
    }

    /// `_decide_sleeve`: the field card that is the best home of the advancement bought.
    pub(super) fn decide_sleeve(&mut self, st: &State, seat: u8, legal: &[Notation]) -> Option<usize> {
        let bought = st.turn.purchases.first()?;
        let label = st.cat.label(bought.copy);
        let copy = if self.seen.get(usize::from(bought.copy)).copied().unwrap_or(false) {
            let t = st.cat.copy_type(bought.copy);
            let s = |k: Symbol| t.symbols[k as usize];
            Sleeving { decay: s(Symbol::Decay), growth: s(Symbol::Growth), text: lower(&t.text) }
        } else if label.starts_with("Fertile Soil") {
            Sleeving { decay: 0, growth: 0, text: String::new() }
        } else {
            return None;
        };
        let field = st.players[usize::from(seat)].field.clone();
        let mut best: Option<f64> = None;
        let mut best_a = None;
        for (i, a) in legal.iter().enumerate() {
            let Some(id) = card_arg(a).filter(|id| field.contains(id)) else { continue };
            let card = self.card(st, id);
            let score = sleeve_score(&card, &copy);
            if best.is_none_or(|b| score > b) {
                best = Some(score);
                best_a = Some(i);
            }
        }
        best_a
    }
}

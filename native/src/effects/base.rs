//! Twin of mysticvale/engine/effects/base.py: the base set's ability vocabulary.
//!
//! Effects with a handler resolve when their ability does ([`resolve`]); the passive ones
//! (`mana_per_guardian`, `no_decay`, `discount_on_this_card`, ...) are read by other rules
//! (sleeve stats, buying, scoring, spoil guards) and do nothing here. Choices inside
//! abilities are pending decisions answered through actions.
#![forbid(unsafe_code)]

use crate::actions::{Notation, Verb};
use crate::card_types::{Ability, Effect};
use crate::pyjson::J;
use crate::state::{CardId, Pending, State, Step};
use crate::zones::{
    ask, card_at, card_name, discard_card, discard_looked_at, discard_searched, ensure_deck, get, log, log_private,
    shuffle_deck, Data,
};

/// The step kinds this module runs.
pub const STEPS: &[&str] = &[];
/// The decision kinds this module owns.
pub const DECISIONS: &[&str] = &["discard_field", "look_top", "search_deck"];

/// Run a step of one of [`STEPS`] (false: not this module's kind).
pub fn run_step(_st: &mut State, _s: &Step) -> bool {
    false
}

fn action(verb: Verb, card: Option<CardId>) -> Notation {
    Notation { verb, args: card.map(crate::actions::card_word).into_iter().collect() }
}

/// `#7` -> 7 (Python's `int(word[1:])`).
fn card_word(action: &Notation) -> Option<CardId> {
    action.args.first()?.get(1..)?.parse().ok()
}

/// One card of each distinct make-up, in id order (identical cards are the same choice).
pub fn distinct_cards(st: &State, cards: &[CardId]) -> Vec<CardId> {
    let mut sorted = cards.to_vec();
    sorted.sort_unstable();
    let mut out: Vec<CardId> = Vec::with_capacity(sorted.len());
    for c in sorted {
        let layers = &st.cards[usize::from(c)];
        if !out.iter().any(|&o| st.cards[usize::from(o)] == *layers) {
            out.push(c);
        }
    }
    out
}

/// The legal actions of one of [`DECISIONS`], in Python's order.
pub fn legal(st: &State, pd: &Pending) -> Option<Vec<Notation>> {
    let p = usize::from(pd.player);
    Some(match &*pd.kind {
        // Calm Weather: discard the top card or put it back.
        "look_top" => vec![action(Verb::Discard, Some(card_at(&pd.data, "card"))), action(Verb::Keep, None)],
        // Mindful Owl, Deadwood Harvester: another field card, or none.
        "discard_field" => {
            let src = get(&pd.data, "source");
            let mut out: Vec<Notation> = st.players[p]
                .field
                .iter()
                .filter(|&&c| src != Some(&J::Int(i64::from(c))))
                .map(|&c| action(Verb::Discard, Some(c)))
                .collect();
            out.push(action(Verb::Skip, None));
            out
        }
        // Cleansing Rain: any card of the deck (one of each make-up), or none.
        "search_deck" => {
            let mut out: Vec<Notation> =
                distinct_cards(st, &st.players[p].deck).into_iter().map(|c| action(Verb::Discard, Some(c))).collect();
            out.push(action(Verb::Skip, None));
            out
        }
        _ => return None,
    })
}

/// Apply a legal action to one of [`DECISIONS`] (already popped); the decision back when it
/// is not this module's.
pub fn apply(st: &mut State, pd: Pending, action: &Notation) -> Option<Pending> {
    let p = pd.player;
    match &*pd.kind {
        "look_top" => {
            let card = card_at(&pd.data, "card");
            if action.verb == Verb::Discard {
                discard_looked_at(st, p, card);
            } else {
                st.players[usize::from(p)].known_top = vec![card];
                let text = format!("Player {} keeps {} on top of the deck.", p + 1, card_name(st, card));
                let public = format!("Player {} puts the top card back.", p + 1);
                log_private(st, "ability", Some(p), text, p, public, Vec::new());
            }
        }
        "discard_field" => {
            if action.verb == Verb::Skip {
                return None;
            }
            let field = &mut st.players[usize::from(p)].field;
            // The decision is answered either way; a card not in the field moves nothing.
            if let Some((i, c)) = card_word(action).and_then(|c| Some((field.iter().position(|&x| x == c)?, c))) {
                field.remove(i);
                discard_card(st, p, c);
                let text = format!("Player {} discards {} from the field.", p + 1, card_name(st, c));
                log(st, "ability", Some(p), text, Vec::new());
            }
        }
        "search_deck" => {
            if action.verb == Verb::Discard {
                if let Some(c) = card_word(action) {
                    discard_searched(st, p, c);
                }
            } else {
                let text = format!("Player {} searches the deck and discards nothing.", p + 1);
                log(st, "ability", Some(p), text, Vec::new());
            }
            shuffle_deck(st, p);
        }
        _ => return Some(pd),
    }
    None
}

/// What other seats read while one of [`DECISIONS`] is open.
pub fn describe(_st: &State, pd: &Pending) -> Option<String> {
    let text = match &*pd.kind {
        "look_top" => "looking at the top card of the deck",
        "discard_field" => "choosing a field card to discard",
        "search_deck" => "searching the deck",
        _ => return None,
    };
    Some(text.to_owned())
}

/// Python's `a // b` (rounded down; 0 where Python would divide by zero, which the card
/// data never asks for).
fn floor_div(a: i64, b: i64) -> i64 {
    if b == 0 {
        return 0;
    }
    let q = a.wrapping_div(b);
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// Resolve an ability whose effect this module owns (false: not its effect).
pub fn resolve(st: &mut State, p: u8, ab: &Ability, d: &Data) -> bool {
    let field_count = st.players[usize::from(p)].field.len() as i64;
    match ab.effect {
        // Gain 1 mana for every `per` cards in your field, rounded down (Aurora).
        Effect::ManaPerFieldCards { per } => {
            let n = floor_div(field_count, per.unwrap_or(2));
            st.turn.mana_bonus += n;
            let text = format!("Player {} gains {n} mana from Aurora's ability.", p + 1);
            log(st, "ability", Some(p), text, vec![("amount".into(), J::Int(n))]);
        }
        // Gain 1 mana for each other card in your field (Magic Seed).
        Effect::ManaPerOtherFieldCards {} => {
            let n = (field_count - 1).max(0);
            st.turn.mana_bonus += n;
            let text = format!("Player {} gains {n} mana for the other cards in the field.", p + 1);
            log(st, "ability", Some(p), text, vec![("amount".into(), J::Int(n))]);
        }
        // Look at the top card of your deck; discard it or put it back (Calm Weather).
        Effect::LookTopDiscardOrKeep {} => {
            ensure_deck(st, p);
            let Some(&top) = st.players[usize::from(p)].deck.last() else { return true };
            ask(st, "look_top", p, vec![top], vec![("card".into(), J::Int(i64::from(top)))]);
        }
        // You may discard another card already in your field (Mindful Owl, Deadwood
        // Harvester).
        Effect::DiscardFieldCard {} => {
            let source = get(d, "card").cloned().unwrap_or(J::Null);
            let others = st.players[usize::from(p)].field.iter().any(|&c| source != J::Int(i64::from(c)));
            if others {
                ask(st, "discard_field", p, Vec::new(), vec![("source".into(), source)]);
            }
        }
        // Search your deck for any card and you may discard it; then shuffle your deck.
        // With an empty deck, first shuffle the discard pile into a new deck (file 000).
        Effect::SearchDeckDiscard {} => {
            ensure_deck(st, p);
            let deck = st.players[usize::from(p)].deck.clone();
            if !deck.is_empty() {
                ask(st, "search_deck", p, deck, vec![("count".into(), J::Int(1))]);
            }
        }
        _ => return false,
    }
    true
}

/// Python's `usable` check for an effect this module owns: the base set registers none
/// (its Harvest abilities always do something), so every base effect is usable.
pub fn usable(_st: &State, _p: u8, _ab: &Ability, _d: &Data) -> Option<bool> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_division_rounds_down_as_python_does() {
        assert_eq!(floor_div(5, 2), 2);
        assert_eq!(floor_div(4, 2), 2);
        assert_eq!(floor_div(0, 2), 0);
        assert_eq!(floor_div(-5, 2), -3);
        assert_eq!(floor_div(5, -2), -3);
        assert_eq!(floor_div(5, 0), 0);
    }

    use crate::testing::midgame;

    fn ability(effect: Effect) -> Ability {
        Ability { trigger: crate::card_types::Trigger::Harvest, effect, optional: false, text: "".into() }
    }

    #[test]
    fn aurora_gives_a_mana_per_two_field_cards_rounded_down() {
        let mut st = midgame();
        let p = st.turn.player;
        let n = st.players[usize::from(p)].field.len() as i64;
        let before = st.turn.mana_bonus;
        assert!(resolve(&mut st, p, &ability(Effect::ManaPerFieldCards { per: None }), &Vec::new()));
        assert_eq!(st.turn.mana_bonus - before, n / 2);
        let e = st.events.last().unwrap();
        assert_eq!(e.text, format!("Player {} gains {} mana from Aurora's ability.", p + 1, n / 2));
        assert_eq!(e.data, vec![("amount".into(), J::Int(n / 2))]);
    }

    #[test]
    fn a_passive_effect_is_not_resolved_here() {
        let mut st = midgame();
        let events = st.events.len();
        assert!(!resolve(&mut st, 0, &ability(Effect::NoDecay {}), &Vec::new()));
        assert_eq!(st.events.len(), events);
    }

    #[test]
    fn identical_cards_are_one_choice_the_lowest_id() {
        let st = midgame();
        let deck = st.players[0].deck.clone();
        let one = distinct_cards(&st, &deck);
        assert!(one.windows(2).all(|w| w[0] < w[1]));
        for &c in &deck {
            let same = one.iter().filter(|&&o| st.cards[usize::from(o)] == st.cards[usize::from(c)]).count();
            assert_eq!(same, 1);
            let first = one.iter().find(|&&o| st.cards[usize::from(o)] == st.cards[usize::from(c)]).unwrap();
            assert!(*first <= c);
        }
    }

    #[test]
    fn describes_its_decisions_and_no_other() {
        let st = midgame();
        let pd = |kind: &str| Pending { kind: kind.into(), player: 0, data: Vec::new(), private: Vec::new() };
        assert_eq!(describe(&st, &pd("search_deck")).as_deref(), Some("searching the deck"));
        assert_eq!(describe(&st, &pd("look_top")).as_deref(), Some("looking at the top card of the deck"));
        assert_eq!(describe(&st, &pd("discard_field")).as_deref(), Some("choosing a field card to discard"));
        assert_eq!(describe(&st, &pd("order")), None);
        assert!(legal(&st, &pd("order")).is_none());
    }
}

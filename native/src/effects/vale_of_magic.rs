//! Twin of mysticvale/engine/effects/vale_of_magic.py: the effects of the Vale of Magic
//! expansion (file 000, Advancements and Vales Expansion 1).
//!
//! The expansion brings two kinds of trigger, Discard and When Bought (file 000, Using
//! Abilities); both are first-class triggers of the engine (`discard` abilities resolve in
//! the Discard phase through `flow::queue_triggered`, so the active player orders
//! simultaneous ones; `when_bought` abilities resolve the moment the card is bought).
//! Every choice inside these abilities is a pending decision answered with an action;
//! cards a player looks at privately are kept in `Pending::private` and in events with
//! `private_to`; cards put back in a known order go to `Player::known_top`.
//!
//! Five vales are named only in file 000's yucata interface notes (Manadew Meadow,
//! Conclave of Ents, Amberwood, Direwolf Burrow, Shimmercliff Rookery); their effects here
//! are our reading of those notes (docs/rules-decisions.md, "Vale of Magic").
//!
//! The passive `vp_per_symbol_in_deck` (Sporeling Reclaimer) has no handler: scoring reads
//! it.
#![forbid(unsafe_code)]

use crate::actions::{Notation, Verb};
use crate::card_types::{Ability, Effect, Symbol, Trigger};
use crate::effects::base::distinct_cards;
use crate::harvest::{gain_vale, mana_available, score_card};
use crate::pyjson::J;
use crate::state::{CardId, Pending, State, Step, ValeId};
use crate::zones::{
    ask, card_name, discard_looked_at, discard_searched, ensure_deck, gain_vp, get, log, log_private, shuffle_deck,
    stats, take_top, Data,
};

/// The step kinds this module runs (none: its abilities resolve in flow's `ability` step).
pub const STEPS: &[&str] = &[];
/// The decision kinds this module owns.
pub const DECISIONS: &[&str] =
    &["keep_field_card", "keep_in_field", "look_discard_any", "manadew_target", "search_deck_n"];

/// Run a step of one of [`STEPS`] (false: not this module's kind; it registers none).
pub fn run_step(_st: &mut State, _s: &Step) -> bool {
    false
}

/// The legal actions of one of [`DECISIONS`], in Python's order.
pub fn legal(st: &State, pd: &Pending) -> Option<Vec<Notation>> {
    match &*pd.kind {
        "manadew_target" => Some(manadew_legal(pd)),
        "search_deck_n" => Some(search_n_legal(st, pd)),
        "keep_in_field" => Some(keep_legal(pd)),
        "keep_field_card" => Some(conclave_legal(st, pd)),
        "look_discard_any" => Some(look_any_legal(pd)),
        _ => None,
    }
}

/// Apply a legal action to one of [`DECISIONS`] (already popped); the decision back when it
/// is not this module's.
pub fn apply(st: &mut State, pd: Pending, action: &Notation) -> Option<Pending> {
    match &*pd.kind {
        "manadew_target" => manadew_apply(st, &pd, action),
        "search_deck_n" => search_n_apply(st, &pd, action),
        "keep_in_field" => keep_apply(st, &pd, action),
        "keep_field_card" => conclave_apply(st, &pd, action),
        "look_discard_any" => look_any_apply(st, &pd, action),
        _ => return Some(pd),
    }
    None
}

/// What other seats read while one of [`DECISIONS`] is open.
pub fn describe(_st: &State, pd: &Pending) -> Option<String> {
    Some(match &*pd.kind {
        "manadew_target" => "choosing a card for Manadew Meadow".to_owned(),
        "search_deck_n" => format!("searching the deck ({} search(es) left)", py_str(get(&pd.data, "left"), "1")),
        "keep_in_field" => "deciding whether to keep a card in the field".to_owned(),
        "keep_field_card" => "choosing a field card to keep after spoiling".to_owned(),
        "look_discard_any" => "looking at the top cards of the deck".to_owned(),
        _ => return None,
    })
}

/// Resolve an ability whose effect this module owns (false: not its effect).
pub fn resolve(st: &mut State, p: u8, ab: &Ability, d: &Data) -> bool {
    if !owns(&ab.effect) {
        return false;
    }
    if usize::from(p) >= st.players.len() {
        return true; // no such seat: nothing to resolve
    }
    match &ab.effect {
        Effect::ActivateManaToken {} => activate_mana_token(st, p, ab, d),
        Effect::FieldFromDeckPerSymbol { symbol } => field_from_deck(st, p, symbol.unwrap_or(Symbol::Guardian), d),
        Effect::DoubleMana {} => double_mana(st, p, d),
        Effect::GainVp { amount } => {
            // Gain `amount` VP tokens from the VP pool (Vale of Magic: once every Harvest phase).
            let why = source_name(st, d);
            gain_vp(st, p, amount.unwrap_or(1), false, &why);
        }
        Effect::ManaPerGuardianOnFieldCard {} => manadew(st, p, d),
        Effect::SearchDeckDiscardPerSymbol { symbol } => lifetap(st, p, symbol.unwrap_or(Symbol::Guardian), d),
        Effect::KeepInField {} => hatchery(st, p, d),
        Effect::KeepFieldCard {} => conclave(st, p, d),
        Effect::GainMana { amount } => gain_mana(st, p, amount.unwrap_or(1), d),
        Effect::GainTopVale { level } => sunwell(st, p, level.unwrap_or(1), d),
        Effect::LookTopDiscardAny { count } => wood_sprite(st, p, count.unwrap_or(3), d),
        _ => {}
    }
    true
}

/// Is this one of the effects this module resolves (every Vale of Magic effect with a
/// handler; the passive `vp_per_symbol_in_deck` has none)?
fn owns(effect: &Effect) -> bool {
    matches!(
        effect,
        Effect::ActivateManaToken {}
            | Effect::FieldFromDeckPerSymbol { .. }
            | Effect::DoubleMana {}
            | Effect::GainVp { .. }
            | Effect::ManaPerGuardianOnFieldCard {}
            | Effect::SearchDeckDiscardPerSymbol { .. }
            | Effect::KeepInField {}
            | Effect::KeepFieldCard {}
            | Effect::GainMana { .. }
            | Effect::GainTopVale { .. }
            | Effect::LookTopDiscardAny { .. }
    )
}

/// Python's `usable` check for an effect this module owns (`_USABLE` entries).
pub fn usable(st: &State, p: u8, ab: &Ability, d: &Data) -> Option<bool> {
    if usize::from(p) >= st.players.len() {
        return None;
    }
    match &ab.effect {
        Effect::FieldFromDeckPerSymbol { symbol } => {
            let pl = &st.players[usize::from(p)];
            let n = data_card(st, d).map_or(0, |c| stats(st, c).get(symbol.unwrap_or(Symbol::Guardian)));
            Some(n > 0 && !(pl.deck.is_empty() && pl.discard.is_empty()))
        }
        Effect::DoubleMana {} => Some(mana_available(st) > 0),
        Effect::ManaPerGuardianOnFieldCard {} => Some(!guardian_cards(st, p).is_empty()),
        _ => None,
    }
}

// -- helpers ------------------------------------------------------------------------------

/// A card id that names one of this game's cards.
fn valid_card(st: &State, c: i64) -> Option<CardId> {
    CardId::try_from(c).ok().filter(|&c| usize::from(c) < st.cards.len())
}

/// The `card` of a step's data, if it names a card of this game.
fn data_card(st: &State, d: &Data) -> Option<CardId> {
    match get(d, "card") {
        Some(J::Int(c)) => valid_card(st, *c),
        _ => None,
    }
}

/// The card ids of a list in a decision's data (`cards`, `below`).
fn card_list(st: &State, d: &Data, key: &str) -> Vec<CardId> {
    match get(d, key) {
        Some(J::List(v)) => {
            v.iter().filter_map(|x| if let J::Int(c) = x { valid_card(st, *c) } else { None }).collect()
        }
        _ => Vec::new(),
    }
}

/// A list of card ids as step data.
fn ids(cards: &[CardId]) -> J {
    J::List(cards.iter().map(|&c| J::Int(i64::from(c))).collect())
}

/// The card an action names (`discard #7`, `keep #7`, `choose #7`), if it is one.
fn action_card(st: &State, action: &Notation) -> Option<CardId> {
    let arg = action.args.first()?;
    valid_card(st, arg.strip_prefix('#')?.parse().ok()?)
}

/// `verb #card`.
fn on_card(verb: Verb, c: CardId) -> Notation {
    Notation { verb, args: vec![crate::actions::card_word(c)] }
}

/// A verb alone (`skip`, `keep`).
fn bare(verb: Verb) -> Notation {
    Notation { verb, args: Vec::new() }
}

/// A data value as Python's `f"{value}"` writes the values this module stores (`default`
/// when it is missing).
fn py_str(v: Option<&J>, default: &str) -> String {
    match v {
        Some(J::Int(i)) => i.to_string(),
        Some(J::Str(s)) => s.to_string(),
        Some(J::BigInt(s)) => s.to_string(),
        Some(J::Bool(b)) => if *b { "True" } else { "False" }.to_owned(),
        Some(J::Null) => "None".to_owned(),
        Some(_) | None => default.to_owned(),
    }
}

/// A vale's name.
fn vale_name(st: &State, v: ValeId) -> String {
    st.vale_types
        .get(usize::from(v))
        .and_then(|&t| st.cat.vales.get(usize::from(t)))
        .map_or_else(String::new, |vt| vt.name.to_string())
}

/// The name of what an ability belongs to: a vale, a bought copy, or a field card.
fn source_name(st: &State, d: &Data) -> String {
    if let Some(v) = get(d, "vale") {
        return match v {
            J::Int(v) => ValeId::try_from(*v).map_or_else(|_| String::new(), |v| vale_name(st, v)),
            _ => String::new(),
        };
    }
    if let Some(c) = get(d, "copy") {
        return match c {
            J::Int(c) => u16::try_from(*c)
                .ok()
                .filter(|&c| usize::from(c) < st.cat.copies.len())
                .map_or_else(String::new, |c| st.cat.copy_type(c).name.to_string()),
            _ => String::new(),
        };
    }
    data_card(st, d).map_or_else(String::new, |c| card_name(st, c))
}

// -- the mana token (Goldenwing Gryphon; Amberwood, Direwolf Burrow, Shimmercliff Rookery) --

/// If your mana token is face down, turn it face up (Goldenwing Gryphon, file 000).
///
/// Bought vales with this ability (yucata notes): a token already face up is first spent
/// for its 1 mana, then turned face up again. (A player could do the same by spending the
/// token just before buying, so this holds in every rule set.)
fn activate_mana_token(st: &mut State, p: u8, ab: &Ability, d: &Data) {
    let who = source_name(st, d);
    let pl = &mut st.players[usize::from(p)];
    if !pl.mana_token_active {
        pl.mana_token_active = true;
        log(st, "ability", Some(p), format!("Player {} turns the mana token face up ({who}).", p + 1), Vec::new());
        return;
    }
    if ab.trigger == Trigger::WhenBought && st.turn.player == p && st.turn.phase == "harvest" {
        st.turn.mana_bonus += 1;
        let text =
            format!("Player {} spends the face-up mana token for 1 mana and turns it face up again ({who}).", p + 1);
        log(st, "ability", Some(p), text, vec![("amount".into(), J::Int(1))]);
    }
}

// -- Harvest: Canopy Explorer ---------------------------------------------------------------

/// For each `symbol` on this card, put the top card of your deck (below the on-deck card)
/// into your field as the rightmost card; exactly that many (file 000, Canopy Explorer). An
/// empty deck is refilled from the discard pile. The cards count in the Harvest (their
/// mana, spirits and VP), but it is too late for growth and When Played.
fn field_from_deck(st: &mut State, p: u8, symbol: Symbol, d: &Data) {
    let Some(src) = data_card(st, d) else { return };
    let n = stats(st, src).get(symbol);
    for _ in 0..n.max(0) {
        let Some(c) = take_top(st, p) else {
            let text = format!("Player {} has no more cards in deck and discard pile.", p + 1);
            log(st, "ability", Some(p), text, Vec::new());
            break;
        };
        st.players[usize::from(p)].field.push(c);
        let text = format!(
            "Player {} puts {} from the deck into the field ({}).",
            p + 1,
            card_name(st, c),
            card_name(st, src)
        );
        log(st, "ability", Some(p), text, vec![("card".into(), J::Int(i64::from(c)))]);
        score_card(st, p, c);
    }
}

// -- Harvest: Ley Line Overflow -------------------------------------------------------------

/// Double your mana: gain as much mana as you have left to spend now (file 000, Ley Line
/// Overflow: best used last; two of them quadruple).
fn double_mana(st: &mut State, p: u8, d: &Data) {
    let n = mana_available(st);
    st.turn.mana_bonus += n;
    let text = format!("Player {} doubles the mana to {} ({}).", p + 1, 2 * n, source_name(st, d));
    log(st, "ability", Some(p), text, vec![("amount".into(), J::Int(n))]);
}

// -- Harvest: Manadew Meadow (provisional) --------------------------------------------------

/// The cards in a player's field that show a guardian.
fn guardian_cards(st: &State, p: u8) -> Vec<CardId> {
    st.players[usize::from(p)].field.iter().copied().filter(|&c| stats(st, c).get(Symbol::Guardian) > 0).collect()
}

/// Choose a card in your field; gain 1 mana for each guardian on it (provisional text).
/// The yucata rule set chooses the card with the most guardians (the leftmost if tied);
/// otherwise the player chooses when the cards differ.
fn manadew(st: &mut State, p: u8, d: &Data) {
    let cards = guardian_cards(st, p);
    if cards.is_empty() {
        let text = format!("Player {} has no guardian in the field ({}).", p + 1, source_name(st, d));
        log(st, "ability", Some(p), text, Vec::new());
        return;
    }
    let counts: Vec<i64> = cards.iter().map(|&c| stats(st, c).get(Symbol::Guardian)).collect();
    let all_same = counts.iter().all(|&n| Some(&n) == counts.first());
    if st.ruleset.manadew_auto_target || all_same {
        let best = counts.iter().copied().max().unwrap_or(0);
        if let Some(i) = counts.iter().position(|&n| n == best) {
            manadew_gain(st, p, cards[i]);
        }
        return;
    }
    // One option per distinct guardian count (the leftmost card with it): the same choice.
    let mut seen: Vec<i64> = Vec::new();
    let mut options: Vec<CardId> = Vec::new();
    for (&c, &n) in cards.iter().zip(&counts) {
        if !seen.contains(&n) {
            seen.push(n);
            options.push(c);
        }
    }
    ask(st, "manadew_target", p, Vec::new(), vec![("cards".into(), ids(&options))]);
}

/// Gain 1 mana for each guardian on the chosen card.
fn manadew_gain(st: &mut State, p: u8, card: CardId) {
    let n = stats(st, card).get(Symbol::Guardian);
    st.turn.mana_bonus += n;
    let text = format!("Player {} gains {n} mana for the guardians on {}.", p + 1, card_name(st, card));
    log(st, "ability", Some(p), text, vec![("amount".into(), J::Int(n))]);
}

fn manadew_legal(pd: &Pending) -> Vec<Notation> {
    let Some(J::List(cards)) = get(&pd.data, "cards") else { return Vec::new() };
    cards
        .iter()
        .filter_map(|c| {
            if let J::Int(c) = c {
                Some(Notation { verb: Verb::Choose, args: vec![format!("#{c}").into()] })
            } else {
                None
            }
        })
        .collect()
}

fn manadew_apply(st: &mut State, pd: &Pending, action: &Notation) {
    if usize::from(pd.player) >= st.players.len() {
        return;
    }
    if let Some(c) = action_card(st, action) {
        manadew_gain(st, pd.player, c);
    }
}

// -- When Played: Lifetap Oracle ------------------------------------------------------------

/// For each `symbol` on this card, search your deck for any card and you may discard it;
/// then shuffle your deck (not the discard pile). With an empty deck, first shuffle the
/// discard pile into a new deck (file 000, Lifetap Oracle).
fn lifetap(st: &mut State, p: u8, symbol: Symbol, d: &Data) {
    let Some(src) = data_card(st, d) else { return };
    let n = stats(st, src).get(symbol);
    if n <= 0 {
        return;
    }
    ensure_deck(st, p);
    let deck = &st.players[usize::from(p)].deck;
    if !deck.is_empty() {
        let mut private = deck.clone();
        private.sort_unstable();
        let source = source_name(st, d);
        ask(
            st,
            "search_deck_n",
            p,
            private,
            vec![("left".into(), J::Int(n)), ("source".into(), J::Str(source.into()))],
        );
    }
}

fn search_n_legal(st: &State, pd: &Pending) -> Vec<Notation> {
    let Some(pl) = st.players.get(usize::from(pd.player)) else { return Vec::new() };
    let mut out: Vec<Notation> = distinct_cards(st, &pl.deck).into_iter().map(|c| on_card(Verb::Discard, c)).collect();
    out.push(bare(Verb::Skip));
    out
}

fn search_n_apply(st: &mut State, pd: &Pending, action: &Notation) {
    let p = pd.player;
    if usize::from(p) >= st.players.len() {
        return;
    }
    let mut left = match get(&pd.data, "left") {
        Some(J::Int(n)) => *n,
        _ => 0,
    };
    if action.verb == Verb::Discard {
        let Some(c) = action_card(st, action) else { return };
        discard_searched(st, p, c);
        left -= 1;
        let deck = &st.players[usize::from(p)].deck;
        if left > 0 && !deck.is_empty() {
            let mut private = deck.clone();
            private.sort_unstable();
            let source = match get(&pd.data, "source") {
                Some(v) => v.clone(),
                None => J::Str("".into()),
            };
            ask(st, "search_deck_n", p, private, vec![("left".into(), J::Int(left)), ("source".into(), source)]);
            return;
        }
    } else {
        // Searching again without discarding would find the same deck: the rest are skipped.
        log(st, "ability", Some(p), format!("Player {} stops searching the deck.", p + 1), Vec::new());
    }
    shuffle_deck(st, p);
    log(st, "ability", Some(p), format!("Player {} shuffles the deck.", p + 1), Vec::new());
}

// -- Discard: Hatchery ------------------------------------------------------------------------

/// If this card is not the first (leftmost) card of your field, you may keep it in your
/// field: it becomes the first card of your next field (file 000, Hatchery). Several kept
/// cards keep the order their abilities resolved in (the active player's order). "First"
/// is the leftmost card of this turn's field, so a card kept last turn (now first) is
/// discarded as normal.
fn hatchery(st: &mut State, p: u8, d: &Data) {
    let Some(card) = data_card(st, d) else { return };
    let field = &st.players[usize::from(p)].field;
    if !field.contains(&card) || st.turn.kept.contains(&card) {
        return;
    }
    if field.first() == Some(&card) {
        let text = format!("{} is the first card in the field and is discarded as normal.", card_name(st, card));
        log(st, "ability", Some(p), text, Vec::new());
        return;
    }
    ask(st, "keep_in_field", p, Vec::new(), vec![("card".into(), J::Int(i64::from(card)))]);
}

fn keep_legal(pd: &Pending) -> Vec<Notation> {
    let c = py_str(get(&pd.data, "card"), "None");
    vec![
        Notation { verb: Verb::Keep, args: vec![format!("#{c}").into()] },
        Notation { verb: Verb::Discard, args: vec![format!("#{c}").into()] },
    ]
}

fn keep_apply(st: &mut State, pd: &Pending, action: &Notation) {
    let p = pd.player;
    let Some(card) = data_card(st, &pd.data) else { return };
    if action.verb == Verb::Keep {
        st.turn.kept.push(card);
        let text = format!("Player {} keeps {} in the field for the next turn.", p + 1, card_name(st, card));
        log(st, "ability", Some(p), text, vec![("card".into(), J::Int(i64::from(card)))]);
    } else {
        let text = format!("Player {} discards {} as normal.", p + 1, card_name(st, card));
        log(st, "ability", Some(p), text, vec![("card".into(), J::Int(i64::from(card)))]);
    }
}

// -- After spoiling: Conclave of Ents (provisional) -------------------------------------------

/// After you spoil, you may choose a card in your field: it is not discarded and becomes
/// the first card of your next field (provisional text, docs/rules-decisions.md).
fn conclave(st: &mut State, p: u8, d: &Data) {
    let options: Vec<CardId> =
        st.players[usize::from(p)].field.iter().copied().filter(|c| !st.turn.kept.contains(c)).collect();
    if !options.is_empty() {
        let source = source_name(st, d);
        ask(
            st,
            "keep_field_card",
            p,
            Vec::new(),
            vec![("cards".into(), ids(&options)), ("source".into(), J::Str(source.into()))],
        );
    }
}

fn conclave_legal(st: &State, pd: &Pending) -> Vec<Notation> {
    let Some(pl) = st.players.get(usize::from(pd.player)) else { return Vec::new() };
    let mut out: Vec<Notation> = card_list(st, &pd.data, "cards")
        .into_iter()
        .filter(|c| pl.field.contains(c))
        .map(|c| on_card(Verb::Keep, c))
        .collect();
    out.push(bare(Verb::Skip));
    out
}

fn conclave_apply(st: &mut State, pd: &Pending, action: &Notation) {
    let p = pd.player;
    if action.verb == Verb::Skip {
        return;
    }
    let Some(card) = action_card(st, action) else { return };
    st.turn.kept.push(card);
    let text = format!(
        "Player {} keeps {} in the field after spoiling ({}).",
        p + 1,
        card_name(st, card),
        py_str(get(&pd.data, "source"), "")
    );
    log(st, "ability", Some(p), text, vec![("card".into(), J::Int(i64::from(card)))]);
}

// -- When Bought: Fauna Hollow, Sunwell Temple, Wood Sprite Hoard ------------------------------

/// Gain `amount` mana to spend this turn (Fauna Hollow: 2).
fn gain_mana(st: &mut State, p: u8, n: i64, d: &Data) {
    st.turn.mana_bonus += n;
    let text = format!("Player {} gains {n} mana ({}).", p + 1, source_name(st, d));
    log(st, "ability", Some(p), text, vec![("amount".into(), J::Int(n))]);
}

/// Take the top card of the level-`level` vale deck and add it to your vales (file 000,
/// Sunwell Temple). Its ability may not be used this turn and its When Bought ability
/// gives nothing; it is not a buy (no spirit cost, not one of the two vale buys).
fn sunwell(st: &mut State, p: u8, level: i64, d: &Data) {
    let deck = usize::try_from(level - 1).ok().and_then(|i| st.vale_decks.get_mut(i));
    let Some(v) = deck.and_then(Vec::pop) else {
        let text = format!("The level-{level} vale deck is empty ({}).", source_name(st, d));
        log(st, "ability", Some(p), text, Vec::new());
        return;
    };
    gain_vale(st, p, v, false);
    let name = vale_name(st, v);
    let text =
        format!("Player {} adds {name} from the top of the level-{level} vale deck ({}).", p + 1, source_name(st, d));
    log(st, "vale", Some(p), text, vec![("vale".into(), J::Str(name.into()))]);
}

/// Look at the top `count` face-down cards of your deck (the on-deck card is not in the
/// deck); discard any of them; the rest go back face down in the same order, which you now
/// know. With fewer cards in the deck, look at all of them (no reshuffle) (file 000, Wood
/// Sprite Hoard; yucata notes: the order of the returned cards is shown).
fn wood_sprite(st: &mut State, p: u8, count: i64, d: &Data) {
    let pl = &st.players[usize::from(p)];
    let n = usize::try_from(count).unwrap_or(0).min(pl.deck.len());
    if n == 0 {
        let text = format!("Player {} has no cards in the deck to look at ({}).", p + 1, source_name(st, d));
        log(st, "ability", Some(p), text, Vec::new());
        return;
    }
    let top = &pl.deck[pl.deck.len() - n..];
    let looked: Vec<CardId> = top.iter().rev().copied().collect(); // top first
    let old = &pl.known_top;
    let below: Vec<CardId> =
        if old.len() > n && &old[old.len() - n..] == top { old[..old.len() - n].to_vec() } else { Vec::new() };
    let names: Vec<String> = looked.iter().map(|&c| card_name(st, c)).collect();
    let text = format!("Player {} looks at the top {n} card(s) of the deck: {}.", p + 1, names.join(", "));
    let public = format!("Player {} looks at the top {n} card(s) of the deck.", p + 1);
    log_private(st, "ability", Some(p), text, p, public, Vec::new());
    let data = vec![("cards".into(), ids(&looked)), ("below".into(), ids(&below))];
    ask(st, "look_discard_any", p, looked, data);
}

fn look_any_legal(pd: &Pending) -> Vec<Notation> {
    let mut out: Vec<Notation> = match get(&pd.data, "cards") {
        Some(J::List(cards)) => cards
            .iter()
            .filter_map(|c| {
                if let J::Int(c) = c {
                    Some(Notation { verb: Verb::Discard, args: vec![format!("#{c}").into()] })
                } else {
                    None
                }
            })
            .collect(),
        _ => Vec::new(),
    };
    out.push(bare(Verb::Keep));
    out
}

fn look_any_apply(st: &mut State, pd: &Pending, action: &Notation) {
    let p = pd.player;
    if usize::from(p) >= st.players.len() {
        return;
    }
    let mut cards = card_list(st, &pd.data, "cards");
    let below = card_list(st, &pd.data, "below");
    if action.verb == Verb::Discard {
        let Some(c) = action_card(st, action) else { return };
        if let Some(i) = cards.iter().position(|&x| x == c) {
            cards.remove(i);
        }
        discard_looked_at(st, p, c);
        if !cards.is_empty() {
            let data = vec![("cards".into(), ids(&cards)), ("below".into(), ids(&below))];
            ask(st, "look_discard_any", p, cards, data);
            return;
        }
    }
    // The rest are back on top in the order they were drawn; the player knows that order.
    let n = cards.len();
    let mut known = below;
    known.extend(cards.iter().rev());
    st.players[usize::from(p)].known_top = known;
    if n > 0 {
        log(st, "ability", Some(p), format!("Player {} puts {n} card(s) back in the same order.", p + 1), Vec::new());
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::catalogue::Catalogue;
    use crate::rng::Seed;
    use crate::rulesets::RULESETS;
    use crate::setup::new_state;

    fn game(ruleset: usize) -> State {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/catalogue_base+vale_of_magic.json");
        let text = std::fs::read_to_string(path).unwrap();
        let cat = Catalogue::shared(&text, "base+vale_of_magic").unwrap();
        let mut st = new_state(cat, &RULESETS[ruleset], 2, Seed::parse("7").unwrap(), true).unwrap();
        st.turn.phase = "harvest";
        st
    }

    /// A vale card of the named type (its id and its first ability).
    fn vale(st: &State, name: &str) -> (ValeId, Ability) {
        let t = st.cat.vale_id(name).unwrap();
        let v = st.vale_types.iter().position(|&x| x == t).unwrap();
        (ValeId::try_from(v).unwrap(), st.cat.vales[usize::from(t)].abilities[0].clone())
    }

    /// A new card made of the named advancement, owned by `p` (not in any zone yet).
    fn card(st: &mut State, p: u8, name: &str) -> (CardId, Ability) {
        let t = st.cat.type_id(name).unwrap();
        let copy = st.cat.printed_copies(t)[0];
        Arc::make_mut(&mut st.cards).push(Arc::from(vec![copy]));
        Arc::make_mut(&mut st.owner).push(p);
        (CardId::try_from(st.cards.len() - 1).unwrap(), st.cat.types[usize::from(t)].abilities[0].clone())
    }

    fn on_vale(v: ValeId) -> Data {
        vec![("vale".into(), J::Int(i64::from(v))), ("k".into(), J::Int(0))]
    }

    fn on(c: CardId) -> Data {
        vec![("card".into(), J::Int(i64::from(c))), ("layer".into(), J::Int(0)), ("k".into(), J::Int(0))]
    }

    fn last_text(st: &State) -> &str {
        &st.events.last().unwrap().text
    }

    fn act(text: &str) -> Notation {
        text.parse().unwrap()
    }

    /// Answer the open decision with `action`, which must be legal.
    fn answer(st: &mut State, action: &str) {
        let pd = st.pending.pop().unwrap();
        assert!(legal(st, &pd).unwrap().contains(&act(action)), "{action} is not legal");
        assert!(apply(st, pd, &act(action)).is_none());
    }

    fn texts(v: Vec<Notation>) -> Vec<String> {
        v.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn fauna_hollow_gives_mana_and_the_vale_of_magic_a_vp() {
        let mut st = game(0);
        let p = st.turn.player;
        let (v, ab) = vale(&st, "Fauna Hollow");
        assert!(resolve(&mut st, p, &ab, &on_vale(v)));
        assert_eq!(st.turn.mana_bonus, 2);
        assert_eq!(last_text(&st), format!("Player {} gains 2 mana (Fauna Hollow).", p + 1));
        let (v, ab) = vale(&st, "Vale of Magic");
        let (pool, vp) = (st.vp_pool, st.players[usize::from(p)].vp_tokens);
        assert!(resolve(&mut st, p, &ab, &on_vale(v)));
        assert_eq!((st.vp_pool, st.players[usize::from(p)].vp_tokens), (pool - 1, vp + 1));
        assert_eq!(last_text(&st), format!("Player {} gains 1 VP (Vale of Magic).", p + 1));
    }

    #[test]
    fn the_mana_token_turns_face_up_or_a_bought_vale_spends_it_first() {
        let mut st = game(0);
        let p = st.turn.player;
        let (c, gryphon) = card(&mut st, p, "Goldenwing Gryphon");
        st.players[usize::from(p)].mana_token_active = false;
        assert!(resolve(&mut st, p, &gryphon, &on(c)));
        assert!(st.players[usize::from(p)].mana_token_active);
        assert!(
            last_text(&st).ends_with("turns the mana token face up (#40 Goldenwing Gryphon)."),
            "{}",
            last_text(&st)
        );
        // Already face up: a When Played ability does nothing more.
        let events = st.events.len();
        assert!(resolve(&mut st, p, &gryphon, &on(c)));
        assert_eq!((st.events.len(), st.turn.mana_bonus), (events, 0));
        // A vale bought in the Harvest spends the face-up token for 1 mana first.
        let (v, amberwood) = vale(&st, "Amberwood");
        assert!(resolve(&mut st, p, &amberwood, &on_vale(v)));
        assert_eq!(st.turn.mana_bonus, 1);
        assert!(st.players[usize::from(p)].mana_token_active);
        assert_eq!(st.events.last().unwrap().data, vec![("amount".into(), J::Int(1))]);
    }

    #[test]
    fn canopy_explorer_puts_one_card_per_guardian_into_the_field_and_scores_it() {
        let mut st = game(0);
        let p = st.turn.player;
        let (c, ab) = card(&mut st, p, "Canopy Explorer");
        st.players[usize::from(p)].field.push(c);
        assert_eq!(usable(&st, p, &ab, &on(c)), Some(true));
        let top = *st.players[usize::from(p)].deck.last().unwrap();
        assert!(resolve(&mut st, p, &ab, &on(c)));
        let pl = &st.players[usize::from(p)];
        assert_eq!(pl.field.last(), Some(&top));
        assert!(st.turn.scored.contains(&top));
        // Nothing left to take: not usable.
        let pl = &mut st.players[usize::from(p)];
        pl.deck.clear();
        pl.discard.clear();
        assert_eq!(usable(&st, p, &ab, &on(c)), Some(false));
    }

    #[test]
    fn ley_line_overflow_doubles_the_mana_left() {
        let mut st = game(0);
        let p = st.turn.player;
        let (c, ab) = card(&mut st, p, "Ley Line Overflow");
        st.turn.mana_bonus = 3;
        st.turn.mana_spent = mana_available(&st) - 2; // 2 mana left to spend
        assert_eq!(usable(&st, p, &ab, &on(c)), Some(true));
        assert!(resolve(&mut st, p, &ab, &on(c)));
        assert_eq!(mana_available(&st), 4);
        assert!(last_text(&st).starts_with(&format!("Player {} doubles the mana to 4 (#", p + 1)));
        st.turn.mana_spent += 4;
        assert_eq!(usable(&st, p, &ab, &on(c)), Some(false));
    }

    /// Two guardian cards with different counts in the active player's field.
    fn manadew_field(st: &mut State, p: u8) -> (CardId, CardId) {
        let (one, _) = card(st, p, "Canopy Explorer");
        let (two, _) = card(st, p, "Canopy Explorer");
        let t = st.cat.type_id("Lifetap Oracle").unwrap();
        let under = st.cards[usize::from(two)][0];
        let slots = st.cat.copies[usize::from(under)].slots;
        let copy =
            *st.cat.printed_copies(t).iter().find(|&&c| !st.cat.copies[usize::from(c)].slots.overlaps(slots)).unwrap();
        let both: Arc<[crate::state::CopyId]> = Arc::from(vec![under, copy]);
        Arc::make_mut(&mut st.cards)[usize::from(two)] = both;
        st.players[usize::from(p)].field.extend([one, two]);
        (one, two)
    }

    #[test]
    fn manadew_meadow_chooses_the_most_guardians_on_yucata_and_asks_elsewhere() {
        let mut st = game(0);
        let p = st.turn.player;
        let (v, ab) = vale(&st, "Manadew Meadow");
        assert_eq!(usable(&st, p, &ab, &on_vale(v)), Some(false));
        let (one, two) = manadew_field(&mut st, p);
        let (g1, g2) = (stats(&st, one).get(Symbol::Guardian), stats(&st, two).get(Symbol::Guardian));
        assert!(g2 > g1, "{g1} {g2}");
        assert_eq!(usable(&st, p, &ab, &on_vale(v)), Some(true));
        assert!(resolve(&mut st, p, &ab, &on_vale(v)));
        assert!(st.pending.is_empty());
        assert_eq!(st.turn.mana_bonus, g2);

        let mut st = game(1); // english: the player chooses
        let p = st.turn.player;
        let (one, two) = manadew_field(&mut st, p);
        assert!(resolve(&mut st, p, &ab, &on_vale(v)));
        let pd = st.pending.last().unwrap();
        assert_eq!(texts(legal(&st, pd).unwrap()), vec![format!("choose #{one}"), format!("choose #{two}")]);
        assert_eq!(describe(&st, pd).unwrap(), "choosing a card for Manadew Meadow");
        answer(&mut st, &format!("choose #{one}"));
        assert_eq!(st.turn.mana_bonus, g1);
    }

    #[test]
    fn lifetap_oracle_searches_once_per_guardian_then_shuffles() {
        let mut st = game(0);
        let p = st.turn.player;
        let (c, ab) = card(&mut st, p, "Lifetap Oracle");
        assert!(resolve(&mut st, p, &ab, &on(c)));
        let pd = st.pending.last().unwrap();
        assert_eq!(&*pd.kind, "search_deck_n");
        let mut deck = st.players[usize::from(p)].deck.clone();
        deck.sort_unstable();
        assert_eq!(pd.private, deck);
        assert_eq!(describe(&st, pd).unwrap(), "searching the deck (1 search(es) left)");
        // Identical cards are one choice; skipping is always offered last.
        let options = legal(&st, pd).unwrap();
        assert!(options.len() < deck.len() + 1);
        assert_eq!(options.last(), Some(&act("skip")));
        let first = options[0].to_string();
        let found = action_card(&st, &options[0]).unwrap();
        answer(&mut st, &first);
        let pl = &st.players[usize::from(p)];
        assert_eq!(pl.discard.last(), Some(&found));
        assert!(!pl.deck.contains(&found));
        assert_eq!(last_text(&st), format!("Player {} shuffles the deck.", p + 1));
        assert!(st.pending.is_empty());
    }

    #[test]
    fn hatchery_keeps_a_card_unless_it_is_the_first_in_the_field() {
        let mut st = game(0);
        let p = st.turn.player;
        let (c, ab) = card(&mut st, p, "Hatchery");
        st.players[usize::from(p)].field.insert(0, c);
        assert!(resolve(&mut st, p, &ab, &on(c)));
        assert!(st.pending.is_empty());
        assert!(last_text(&st).ends_with("is the first card in the field and is discarded as normal."));
        st.players[usize::from(p)].field.remove(0);
        st.players[usize::from(p)].field.push(c);
        assert!(resolve(&mut st, p, &ab, &on(c)));
        let pd = st.pending.last().unwrap();
        assert_eq!(texts(legal(&st, pd).unwrap()), vec![format!("keep #{c}"), format!("discard #{c}")]);
        assert_eq!(describe(&st, pd).unwrap(), "deciding whether to keep a card in the field");
        answer(&mut st, &format!("keep #{c}"));
        assert_eq!(st.turn.kept, vec![c]);
        // Kept already: nothing to ask.
        assert!(resolve(&mut st, p, &ab, &on(c)));
        assert!(st.pending.is_empty());
    }

    #[test]
    fn conclave_of_ents_keeps_a_field_card_or_skips() {
        let mut st = game(0);
        let p = st.turn.player;
        let (v, ab) = vale(&st, "Conclave of Ents");
        let field = st.players[usize::from(p)].field.clone();
        assert!(resolve(&mut st, p, &ab, &on_vale(v)));
        let pd = st.pending.last().unwrap();
        let mut want: Vec<String> = field.iter().map(|c| format!("keep #{c}")).collect();
        want.push("skip".into());
        assert_eq!(texts(legal(&st, pd).unwrap()), want);
        assert_eq!(describe(&st, pd).unwrap(), "choosing a field card to keep after spoiling");
        answer(&mut st, &format!("keep #{}", field[1]));
        assert_eq!(st.turn.kept, vec![field[1]]);
        assert!(last_text(&st).ends_with("in the field after spoiling (Conclave of Ents)."));
    }

    #[test]
    fn sunwell_temple_adds_the_top_level_1_vale_unless_the_deck_is_empty() {
        let mut st = game(0);
        let p = st.turn.player;
        let (v, ab) = vale(&st, "Sunwell Temple");
        let top = *st.vale_decks[0].last().unwrap();
        assert!(resolve(&mut st, p, &ab, &on_vale(v)));
        assert_eq!(st.players[usize::from(p)].vales.last(), Some(&top));
        assert_eq!(st.turn.new_vales, vec![top]);
        assert_eq!(&*st.events.last().unwrap().kind, "vale");
        st.vale_decks[0].clear();
        assert!(resolve(&mut st, p, &ab, &on_vale(v)));
        assert_eq!(last_text(&st), "The level-1 vale deck is empty (Sunwell Temple).");
    }

    #[test]
    fn wood_sprite_hoard_looks_at_three_discards_any_and_knows_the_rest() {
        let mut st = game(0);
        let p = st.turn.player;
        let (v, ab) = vale(&st, "Wood Sprite Hoard");
        let deck = st.players[usize::from(p)].deck.clone();
        let n = deck.len();
        let (a, b, c) = (deck[n - 1], deck[n - 2], deck[n - 3]); // top first
        assert!(resolve(&mut st, p, &ab, &on_vale(v)));
        let ev = st.events.last().unwrap();
        assert_eq!(ev.private_to, Some(p));
        assert_eq!(ev.public_text, format!("Player {} looks at the top 3 card(s) of the deck.", p + 1));
        let pd = st.pending.last().unwrap();
        assert_eq!(pd.private, vec![a, b, c]);
        assert_eq!(
            texts(legal(&st, pd).unwrap()),
            vec![format!("discard #{a}"), format!("discard #{b}"), format!("discard #{c}"), "keep".into()]
        );
        answer(&mut st, &format!("discard #{b}"));
        assert_eq!(st.players[usize::from(p)].discard.last(), Some(&b));
        assert_eq!(st.pending.last().unwrap().private, vec![a, c]);
        answer(&mut st, "keep");
        let pl = &st.players[usize::from(p)];
        assert_eq!(pl.known_top, vec![c, a]); // top last
        assert_eq!(&pl.deck[pl.deck.len() - 2..], &[c, a]);
        assert_eq!(last_text(&st), format!("Player {} puts 2 card(s) back in the same order.", p + 1));
        // An empty deck: nothing to look at.
        st.players[usize::from(p)].deck.clear();
        assert!(resolve(&mut st, p, &ab, &on_vale(v)));
        assert!(st.pending.is_empty());
    }

    #[test]
    fn other_effects_and_decisions_are_not_this_modules() {
        let mut st = game(0);
        let p = st.turn.player;
        let (c, ab) = card(&mut st, p, "Sporeling Reclaimer"); // passive: scoring reads it
        assert!(!resolve(&mut st, p, &ab, &on(c)));
        assert_eq!(usable(&st, p, &ab, &on(c)), None);
        let pd = Pending { kind: "look_top".into(), player: p, data: Vec::new(), private: Vec::new() };
        assert!(legal(&st, &pd).is_none());
        assert!(describe(&st, &pd).is_none());
        assert_eq!(apply(&mut st, pd.clone(), &act("keep")), Some(pd));
    }
    #[test]
    fn malformed_data_from_a_corrupt_save_never_panics() {
        let mut st = game(1);
        let p = st.turn.player;
        let before = crate::serialize::dumps(&st);
        // No such seat, no such card, no card at all: nothing happens.
        let (c, canopy) = card(&mut st, p, "Canopy Explorer");
        let (_, hatchery) = card(&mut st, p, "Hatchery");
        {
            let n = st.cards.len() - 2;
            Arc::make_mut(&mut st.cards).truncate(n)
        };
        {
            let n = st.owner.len() - 2;
            Arc::make_mut(&mut st.owner).truncate(n)
        };
        assert!(resolve(&mut st, 9, &canopy, &on(c)));
        assert!(resolve(&mut st, p, &canopy, &on(9999)));
        assert!(resolve(&mut st, p, &hatchery, &Vec::new()));
        assert_eq!(usable(&st, p, &canopy, &Vec::new()), Some(false));
        assert_eq!(usable(&st, 9, &canopy, &on(c)), None);
        assert_eq!(crate::serialize::dumps(&st), before);
        // Decisions whose data lacks what they need, or names no card of the game.
        let pd = |kind: &str, data: Data| Pending { kind: kind.into(), player: p, data, private: Vec::new() };
        assert_eq!(describe(&st, &pd("search_deck_n", Vec::new())).unwrap(), "searching the deck (1 search(es) left)");
        let bad = vec![("cards".into(), J::Str("x".into())), ("card".into(), J::Int(-1))];
        for kind in DECISIONS {
            let d = pd(kind, bad.clone());
            let options = legal(&st, &d).unwrap();
            for a in options.iter().chain([&act("choose #99999"), &act("keep #99999"), &act("discard #-1")]) {
                let mut s2 = st.clone();
                assert!(apply(&mut s2, d.clone(), a).is_none(), "{kind} {a}");
            }
            let mut s2 = st.clone();
            assert!(apply(&mut s2, pd(kind, Vec::new()), &act("keep")).is_none());
        }
    }
}

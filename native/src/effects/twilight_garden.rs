//! Twin of mysticvale/engine/effects/twilight_garden.py: the effects of the Twilight Garden
//! expansion (file 003, Card Clarifications).
//!
//! Every ability here follows the clarification text of its card in file 003; where that
//! text leaves a choice open, our reading is recorded in docs/rules-decisions.md
//! ("Twilight Garden"). Choices are pending decisions for the player the rules name: an
//! opponent answers Deepwood Veteran, the owner of Echoing Waterfalls answers when someone
//! else spoils. What a player looks at privately (Truesight Archer, Sorcel, Ranger Captain,
//! Snapjaw) is kept in `Pending::private` / shown only to that player.
//!
//! The leader abilities are in [`crate::leaders`].
//!
//! It calls the Harvest's `gain_vale`, `add_purchase`, `score_card`, `placement_exists`,
//! `buy_options` and `buy_advancement` (free vales are gained, free advancements bought)
//! and base's `distinct_cards`.
#![forbid(unsafe_code)]

use crate::actions::{Notation, Verb};
use crate::card_types::{Ability, Effect, Symbol};
use crate::effects::base::distinct_cards;
use crate::harvest::{self, Market};
use crate::pyjson::J;
use crate::rng::Stream;
use crate::state::{CardId, CopyId, Pending, Purchase, State, Step, ValeId};
use crate::zones::{
    ask, card_at, card_name, discard_card, discard_looked_at, gain_curse, gain_vp, get, int, log, log_private,
    mark_seen, reveal, schedule, shuffle_discard_into_deck, stats, step, take_from_deck, take_top, text, Data,
};

/// The step kinds this module runs.
pub const STEPS: &[&str] = &["deepwood_ask"];
/// The decision kinds this module owns.
pub const DECISIONS: &[&str] = &[
    "deepwood_veteran",
    "echoing_waterfalls",
    "flame_geysers",
    "griffin_claim",
    "griffin_give",
    "look_top_n",
    "lore_keeper",
    "order_top",
    "ranger_captain",
    "rockspine_zenith",
    "snapjaw",
];

// -- small helpers ---------------------------------------------------------------------

fn act(verb: Verb, args: &[&str]) -> Notation {
    Notation { verb, args: args.iter().map(|&a| a.into()).collect() }
}

fn data<const N: usize>(pairs: [(&'static str, J); N]) -> Data {
    pairs.into_iter().map(|(k, v)| (k.into(), v)).collect()
}

fn ids(cards: &[CardId]) -> J {
    J::List(cards.iter().map(|&c| J::Int(i64::from(c))).collect())
}

/// Is `c` a card of this game?
fn is_card(st: &State, c: CardId) -> bool {
    usize::from(c) < st.cards.len()
}

/// The card ids of a list at `key` of a decision's data (cards of this game only: the
/// engine writes no other).
fn cards_at(st: &State, d: &Data, key: &str) -> Vec<CardId> {
    match get(d, key) {
        Some(J::List(xs)) => xs
            .iter()
            .filter_map(|x| match x {
                J::Int(v) => CardId::try_from(*v).ok().filter(|&c| is_card(st, c)),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// A seat number at `key` of a step's or decision's data (a seat of this game).
fn seat_at(st: &State, d: &Data, key: &str) -> Option<u8> {
    u8::try_from(int(d, key)).ok().filter(|&q| usize::from(q) < st.players.len())
}

/// The `i`-th argument of an action ("" when it has fewer).
fn arg(action: &Notation, i: usize) -> &str {
    action.args.get(i).map_or("", |a| a)
}

/// A card's notation `#7` read back (a card of this game).
fn card_arg(st: &State, action: &Notation, i: usize) -> Option<CardId> {
    arg(action, i).strip_prefix('#')?.parse().ok().filter(|&c| is_card(st, c))
}

/// The position named by `vale.3` (0-based).
fn vale_pos_arg(action: &Notation, i: usize) -> Option<usize> {
    arg(action, i).split('.').nth(1)?.parse::<usize>().ok()?.checked_sub(1)
}

fn vale_name(st: &State, v: ValeId) -> &str {
    st.vale_types.get(usize::from(v)).and_then(|&t| st.cat.vales.get(usize::from(t))).map_or("", |vt| &vt.name)
}

fn vale_level(st: &State, v: ValeId) -> u8 {
    st.vale_types.get(usize::from(v)).and_then(|&t| st.cat.vales.get(usize::from(t))).map_or(0, |vt| vt.level)
}

/// The other seats in turn order, starting after `p`.
fn opponents(st: &State, p: u8) -> Vec<u8> {
    let n = st.players.len();
    (1..n).filter_map(|i| u8::try_from((usize::from(p) + i) % n).ok()).collect()
}

/// A level's supply deck of vales (levels 1 and 2), if there is one.
fn vale_deck(st: &State, level: i64) -> Option<&Vec<ValeId>> {
    usize::try_from(level).ok()?.checked_sub(1).and_then(|i| st.vale_decks.get(i))
}

/// A level's supply deck of advancements (levels 1 to 3), if there is one.
fn adv_deck(st: &State, level: i64) -> Option<&Vec<CopyId>> {
    usize::try_from(level).ok()?.checked_sub(1).and_then(|i| st.adv_decks.get(i))
}

/// (market, copy) of every advancement of the commons that may be taken for free now,
/// costing from `min_cost` to `max_cost` (Python's `buy_options(st, free=True, ...)`).
fn free_buy_options(st: &State, min_cost: i64, max_cost: i64) -> Vec<(Market, CopyId)> {
    harvest::buy_options(st, true, Some(max_cost), min_cost).into_iter().map(|o| (o.market, o.copy)).collect()
}

// -- the effects -----------------------------------------------------------------------

/// Resolve an ability whose effect this module owns (false: not its effect).
pub fn resolve(st: &mut State, p: u8, ab: &Ability, d: &Data) -> bool {
    if usize::from(p) >= st.players.len() {
        return owns(&ab.effect); // no such seat: nothing to do
    }
    match &ab.effect {
        Effect::ManaBelowFieldCount { below } => mana_below(st, p, below.unwrap_or(6)),
        Effect::AllManaTokensActive {} => daybreak(st, p),
        Effect::DiscardCurseToken { amount } => herbalist(st, p, amount.unwrap_or(1)),
        Effect::OpponentsGiveVpOrCurse { curse } => deepwood(st, p, curse.unwrap_or(2)),
        Effect::ExtraValeAndSwap {} => griffin(st, p),
        Effect::FreeTopVale { level } => ranger(st, p, level.unwrap_or(1)),
        Effect::FreeTopAdvancement { level } => snapjaw(st, p, level.unwrap_or(3)),
        Effect::FreeCommonsAdvancement { min_cost, max_cost } => {
            rockspine(st, p, min_cost.unwrap_or(1), max_cost.unwrap_or(14));
        }
        Effect::BottomCardIntoField {} => rotted_weald(st, p),
        Effect::LookTopPerGuardian {} => truesight(st, p, d),
        Effect::LookTopN { count } => look_top_n(st, p, count.unwrap_or(2), d),
        Effect::RevealUntilCursedLands { count } => lore_keeper(st, p, count.unwrap_or(2)),
        Effect::CursePerCurseSymbol {} => spirits_of_decay(st, p, d),
        Effect::VpPerMissingCardAndExtraTurn { below } => witches(st, p, below.unwrap_or(9)),
        Effect::RedrawOnDeckOnOpponentSpoil {} => echoing(st, p, d),
        Effect::AllGainPerValeNegativeVp {} => flame_geysers(st, p),
        _ => return false,
    }
    true
}

/// Is this one of this module's effects?
fn owns(e: &Effect) -> bool {
    matches!(
        e,
        Effect::ManaBelowFieldCount { .. }
            | Effect::AllManaTokensActive {}
            | Effect::DiscardCurseToken { .. }
            | Effect::OpponentsGiveVpOrCurse { .. }
            | Effect::ExtraValeAndSwap {}
            | Effect::FreeTopVale { .. }
            | Effect::FreeTopAdvancement { .. }
            | Effect::FreeCommonsAdvancement { .. }
            | Effect::BottomCardIntoField {}
            | Effect::LookTopPerGuardian {}
            | Effect::LookTopN { .. }
            | Effect::RevealUntilCursedLands { .. }
            | Effect::CursePerCurseSymbol {}
            | Effect::VpPerMissingCardAndExtraTurn { .. }
            | Effect::RedrawOnDeckOnOpponentSpoil {}
            | Effect::AllGainPerValeNegativeVp {}
    )
}

/// Python's `usable` check for an effect this module owns.
pub fn usable(st: &State, p: u8, ab: &Ability, _d: &Data) -> Option<bool> {
    let pl = st.players.get(usize::from(p))?;
    Some(match &ab.effect {
        Effect::AllManaTokensActive {} => st.players.iter().any(|q| !q.mana_token_active),
        Effect::DiscardCurseToken { .. } => pl.curse_tokens > 0,
        Effect::FreeTopVale { level } => vale_deck(st, level.unwrap_or(1)).is_some_and(|d| !d.is_empty()),
        Effect::FreeTopAdvancement { level } => adv_deck(st, level.unwrap_or(3)).is_some_and(|d| !d.is_empty()),
        Effect::FreeCommonsAdvancement { min_cost, max_cost } => {
            !free_buy_options(st, min_cost.unwrap_or(1), max_cost.unwrap_or(14)).is_empty()
        }
        Effect::BottomCardIntoField {} => !pl.deck.is_empty() || !pl.discard.is_empty(),
        _ => return None,
    })
}

/// Gain mana equal to `below` minus the cards in your field, never less than 0 (file 003:
/// Frostmarch Glacier 6, Raincaller Rock 5).
fn mana_below(st: &mut State, p: u8, below: i64) {
    let field = i64::try_from(st.players[usize::from(p)].field.len()).unwrap_or(i64::MAX);
    let n = (below - field).max(0);
    st.turn.mana_bonus += n;
    let text = format!("Player {} gains {n} mana ({below} minus the cards in the field).", p + 1);
    log(st, "ability", Some(p), text, data([("amount", J::Int(n))]));
}

/// Every player whose mana token is on its used side turns it to the active side (file
/// 003: all of them or none, the user included).
fn daybreak(st: &mut State, p: u8) {
    let mut turned = Vec::new();
    for (q, pl) in (1..).zip(&mut st.players) {
        if !pl.mana_token_active {
            pl.mana_token_active = true;
            turned.push(format!("player {q}"));
        }
    }
    let who = if turned.is_empty() { "nobody".to_owned() } else { turned.join(", ") };
    log(
        st,
        "ability",
        Some(p),
        format!("Player {}'s Daybreak Herald turns mana tokens active: {who}.", p + 1),
        Vec::new(),
    );
}

/// Discard one of your own curse tokens, back to the pool (file 003, Herbalist).
fn herbalist(st: &mut State, p: u8, amount: i64) {
    let pl = &mut st.players[usize::from(p)];
    let n = pl.curse_tokens.min(amount);
    if n <= 0 {
        return;
    }
    pl.curse_tokens -= n;
    st.curse_supply_taken -= n;
    let text = format!("Player {} returns {n} curse token(s) to the pool.", p + 1);
    log(st, "ability", Some(p), text, data([("amount", J::Int(n))]));
}

// -- Deepwood Veteran: each opponent gives a VP token or takes 2 curse tokens -----------

/// Each opponent either gives you one VP token or gains `curse` curse tokens; one without
/// VP tokens must take the curse tokens (file 003). Each opponent decides.
fn deepwood(st: &mut State, p: u8, curse: i64) {
    let asks: Vec<Step> = opponents(st, p)
        .into_iter()
        .map(|q| step("deepwood_ask", q, data([("to", J::Int(i64::from(p))), ("curse", J::Int(curse))])))
        .collect();
    schedule(st, asks);
}

/// Run a step of one of [`STEPS`] (false: not this module's kind).
pub fn run_step(st: &mut State, s: &Step) -> bool {
    if &*s.kind != "deepwood_ask" {
        return false;
    }
    let q = s.player;
    let (to, n) = (int(&s.data, "to"), int(&s.data, "curse"));
    let Some(pl) = st.players.get(usize::from(q)) else { return true };
    if pl.vp_tokens <= 0 {
        gain_curse(st, q, n, &format!("Deepwood Veteran of player {}; no VP token to give", to + 1));
        return true;
    }
    ask(st, "deepwood_veteran", q, Vec::new(), data([("to", J::Int(to)), ("curse", J::Int(n))]));
    true
}

fn deepwood_apply(st: &mut State, pd: &Pending, action: &Notation) {
    let q = pd.player;
    let Some(to) = seat_at(st, &pd.data, "to") else { return };
    if usize::from(q) >= st.players.len() {
        return;
    }
    if action.verb == Verb::Give {
        st.players[usize::from(q)].vp_tokens -= 1;
        st.players[usize::from(to)].vp_tokens += 1;
        let text = format!("Player {} gives player {} one VP token (Deepwood Veteran).", q + 1, to + 1);
        log(st, "ability", Some(q), text, Vec::new());
    } else {
        gain_curse(st, q, int(&pd.data, "curse"), &format!("Deepwood Veteran of player {}", to + 1));
    }
}

// -- Griffin Rider: one more vale buy; give a level-2 vale, claim two level-1 ------------

/// You may buy one more vale this turn; you may also give one of your level-2 vales to an
/// opponent and claim up to two of that opponent's level-1 vales (file 003). No When
/// Bought effects; the claimed vales do not count towards the buy limit.
fn griffin(st: &mut State, p: u8) {
    st.turn.vale_limit += 1;
    log(
        st,
        "ability",
        Some(p),
        format!("Player {} may buy one more vale this turn (Griffin Rider).", p + 1),
        Vec::new(),
    );
    if !griffin_gives(st, p).is_empty() {
        ask(st, "griffin_give", p, Vec::new(), Vec::new());
    }
}

fn griffin_gives(st: &State, p: u8) -> Vec<Notation> {
    let Some(pl) = st.players.get(usize::from(p)) else { return Vec::new() };
    let mine: Vec<usize> =
        pl.vales.iter().enumerate().filter(|(_, &v)| vale_level(st, v) == 2).map(|(pos, _)| pos).collect();
    let targets: Vec<u8> = opponents(st, p)
        .into_iter()
        .filter(|&q| st.players[usize::from(q)].vales.iter().any(|&v| vale_level(st, v) == 1))
        .collect();
    let mut out = Vec::new();
    for pos in mine {
        for &q in &targets {
            out.push(act(Verb::Give, &[&format!("vale.{}", pos + 1), &format!("p{}", q + 1)]));
        }
    }
    out
}

fn griffin_give_apply(st: &mut State, pd: &Pending, action: &Notation) {
    let p = pd.player;
    if action.verb == Verb::Skip {
        return;
    }
    let Some(pos) = vale_pos_arg(action, 0) else { return };
    let Some(q) = arg(action, 1).get(1..).and_then(|x| x.parse::<u8>().ok()).and_then(|x| x.checked_sub(1)) else {
        return;
    };
    if usize::from(q) >= st.players.len() || pos >= st.players.get(usize::from(p)).map_or(0, |pl| pl.vales.len()) {
        return;
    }
    let v = st.players[usize::from(p)].vales.remove(pos);
    st.players[usize::from(q)].vales.push(v);
    let text = format!("Player {} gives the vale {} to player {} (Griffin Rider).", p + 1, vale_name(st, v), q + 1);
    log(st, "ability", Some(p), text, Vec::new());
    ask(st, "griffin_claim", p, Vec::new(), data([("opponent", J::Int(i64::from(q))), ("left", J::Int(2))]));
}

fn griffin_claim_legal(st: &State, pd: &Pending) -> Vec<Notation> {
    let mut out = Vec::new();
    if let Some(q) = seat_at(st, &pd.data, "opponent") {
        for (pos, &v) in st.players[usize::from(q)].vales.iter().enumerate() {
            if vale_level(st, v) == 1 {
                out.push(act(Verb::Take, &[&format!("vale.{}", pos + 1)]));
            }
        }
    }
    out.push(act(Verb::Skip, &[]));
    out
}

fn griffin_claim_apply(st: &mut State, pd: &Pending, action: &Notation) {
    let p = pd.player;
    let Some(q) = seat_at(st, &pd.data, "opponent") else { return };
    if action.verb == Verb::Skip {
        return;
    }
    let Some(pos) = vale_pos_arg(action, 0) else { return };
    if pos >= st.players[usize::from(q)].vales.len() {
        return;
    }
    let v = st.players[usize::from(q)].vales.remove(pos);
    harvest::gain_vale(st, p, v, false);
    let text = format!("Player {} claims the vale {} from player {} (Griffin Rider).", p + 1, vale_name(st, v), q + 1);
    log(st, "ability", Some(p), text, Vec::new());
    let left = int(&pd.data, "left") - 1;
    if left > 0 && st.players[usize::from(q)].vales.iter().any(|&x| vale_level(st, x) == 1) {
        ask(st, "griffin_claim", p, Vec::new(), data([("opponent", J::Int(i64::from(q))), ("left", J::Int(left))]));
    }
}

// -- Ranger Captain, Snapjaw: look at a supply deck's top card and take it free ----------

/// Look at the top card of the level-`level` vale deck privately; you may take it free
/// (When Bought effects trigger; it does not count towards the buy limit) or put it back
/// (file 003, Ranger Captain).
fn ranger(st: &mut State, p: u8, level: i64) {
    let Some(&top) = vale_deck(st, level).and_then(|d| d.last()) else {
        log(st, "ability", Some(p), format!("Player {}'s vale deck to look at is empty.", p + 1), Vec::new());
        return;
    };
    let d = data([("looked_vale", J::Int(i64::from(top))), ("level", J::Int(level)), ("shows", J::from("vale"))]);
    ask(st, "ranger_captain", p, Vec::new(), d);
}

fn ranger_apply(st: &mut State, pd: &Pending, action: &Notation) {
    let p = pd.player;
    let level = int(&pd.data, "level");
    let v = ValeId::try_from(int(&pd.data, "looked_vale")).unwrap_or(ValeId::MAX);
    let at = vale_deck(st, level).and_then(|d| d.iter().position(|&x| x == v));
    let (Verb::Take, Some(i)) = (action.verb, at) else {
        let text = format!("Player {} puts {} back on the vale deck.", p + 1, vale_name(st, v));
        let public = format!("Player {} puts the vale back on top of the deck.", p + 1);
        log_private(st, "ability", Some(p), text, p, public, Vec::new());
        return;
    };
    if let Some(deck) = usize::try_from(level - 1).ok().and_then(|l| st.vale_decks.get_mut(l)) {
        deck.remove(i);
    }
    let text = format!("Player {} takes the vale {} for free (Ranger Captain).", p + 1, vale_name(st, v));
    log(st, "ability", Some(p), text, Vec::new());
    harvest::gain_vale(st, p, v, true);
}

/// An advancement gained for free outside the commons: bought, to be sleeved in the
/// Discard phase, When Bought effects trigger, not counted as a buy (file 003).
pub fn gain_free_copy(st: &mut State, p: u8, copy: CopyId) {
    harvest::add_purchase(st, p, copy, None);
}

fn placeable(st: &State, copy: CopyId) -> bool {
    let mut all = st.turn.purchases.clone();
    all.push(Purchase { copy, target: None });
    harvest::placement_exists(st, &all)
}

/// Look at the top card of the level-`level` advancement deck privately; you may take it
/// free if you can sleeve it, or put it back (file 003, Snapjaw).
fn snapjaw(st: &mut State, p: u8, level: i64) {
    let Some(&top) = adv_deck(st, level).and_then(|d| d.last()) else {
        log(st, "ability", Some(p), format!("Player {}'s advancement deck to look at is empty.", p + 1), Vec::new());
        return;
    };
    let d = data([("copy", J::Int(i64::from(top))), ("level", J::Int(level)), ("shows", J::from("copy"))]);
    ask(st, "snapjaw", p, Vec::new(), d);
}

/// The copy at a decision's `copy` entry, if it is one of this catalogue's.
fn copy_at(st: &State, d: &Data) -> Option<CopyId> {
    CopyId::try_from(int(d, "copy")).ok().filter(|&c| usize::from(c) < st.cat.copies.len())
}

fn snapjaw_legal(st: &State, pd: &Pending) -> Vec<Notation> {
    let mut out = Vec::new();
    if copy_at(st, &pd.data).is_some_and(|c| placeable(st, c)) {
        out.push(act(Verb::Take, &[&format!("adv.{}", int(&pd.data, "level"))]));
    }
    out.push(act(Verb::Skip, &[]));
    out
}

fn snapjaw_apply(st: &mut State, pd: &Pending, action: &Notation) {
    let p = pd.player;
    let Some(copy) = copy_at(st, &pd.data) else { return };
    let level = int(&pd.data, "level");
    let at = adv_deck(st, level).and_then(|d| d.iter().rposition(|&x| x == copy));
    let label = st.cat.label(copy).to_owned();
    let (Verb::Take, Some(i)) = (action.verb, at) else {
        let text = format!("Player {} puts {label} back on the deck.", p + 1);
        let public = format!("Player {} puts the advancement back on top of the deck.", p + 1);
        log_private(st, "ability", Some(p), text, p, public, Vec::new());
        return;
    };
    if let Some(deck) = usize::try_from(level - 1).ok().and_then(|l| st.adv_decks.get_mut(l)) {
        deck.remove(i);
    }
    let text = format!("Player {} takes {label} for free (Snapjaw).", p + 1);
    log(st, "ability", Some(p), text, data([("copy", J::from(label))]));
    gain_free_copy(st, p, copy);
}

// -- Rockspine Zenith: a free advancement from the commons -------------------------------

/// Buy for free one advancement of the commons (Fertile Soil included) costing from
/// `min_cost` to `max_cost`; When Bought effects trigger; not counted as a buy (file 003,
/// Rockspine Zenith).
fn rockspine(st: &mut State, p: u8, min_cost: i64, max_cost: i64) {
    if !free_buy_options(st, min_cost, max_cost).is_empty() {
        let d = data([("min_cost", J::Int(min_cost)), ("max_cost", J::Int(max_cost))]);
        ask(st, "rockspine_zenith", p, Vec::new(), d);
    }
}

fn rockspine_legal(st: &State, pd: &Pending) -> Vec<Notation> {
    let mut seen: Vec<Notation> = Vec::new();
    for (market, _) in free_buy_options(st, int(&pd.data, "min_cost"), int(&pd.data, "max_cost")) {
        let a = act(Verb::Buy, &[&market.to_string()]);
        if !seen.contains(&a) {
            seen.push(a);
        }
    }
    seen.push(act(Verb::Skip, &[]));
    seen
}

fn rockspine_apply(st: &mut State, pd: &Pending, action: &Notation) {
    if action.verb == Verb::Skip {
        return;
    }
    let options = free_buy_options(st, int(&pd.data, "min_cost"), int(&pd.data, "max_cost"));
    if let Some((market, copy)) = options.into_iter().find(|(m, _)| m.to_string() == arg(action, 0)) {
        harvest::buy_advancement(st, pd.player, market, copy, None, 0, false);
    }
}

// -- Rotted Weald: the bottom card of the deck into the field ----------------------------

/// Place the bottom card of your deck at the end of your field (shuffling the discard
/// pile into a new deck first if the deck is empty). It is placed, not played: no When
/// Played effect; its VP and curse symbols count in this Harvest (our reading).
fn rotted_weald(st: &mut State, p: u8) {
    let pl = &st.players[usize::from(p)];
    if pl.deck.is_empty() && !pl.discard.is_empty() {
        shuffle_discard_into_deck(st, p);
    }
    let Some(&c) = st.players[usize::from(p)].deck.first() else { return };
    take_from_deck(st, p, c);
    st.players[usize::from(p)].field.push(c);
    mark_seen(st, c);
    let text = format!("Player {} places {} from the bottom of the deck into the field.", p + 1, card_name(st, c));
    log(st, "ability", Some(p), text, Vec::new());
    harvest::score_card(st, p, c);
}

// -- When Played: look at the top cards of the deck (Truesight Archer; Sorcel, Le Que) ---

/// The top `n` cards of the deck, top first, left in the deck. If the deck has fewer, the
/// discard pile is shuffled into a new deck *below* them and the look goes on; with still
/// too few, all of them (file 003, Truesight Archer / Sorcel).
pub fn top_cards(st: &mut State, p: u8, n: i64) -> Vec<CardId> {
    let Some(pl) = st.players.get_mut(usize::from(p)) else { return Vec::new() };
    let short = i64::try_from(pl.deck.len()).is_ok_and(|len| len < n);
    if short && !pl.discard.is_empty() {
        // Unlike an empty deck's refill, the cards still in the deck keep their place on top.
        let mut new = std::mem::take(&mut pl.discard);
        st.rng.shuffle(&Stream::Deck(p), &mut new);
        new.append(&mut pl.deck);
        pl.deck = new;
        log(st, "shuffle", Some(p), format!("Player {} shuffles the discard pile into a new deck.", p + 1), Vec::new());
    }
    let deck = &st.players[usize::from(p)].deck;
    let k = usize::try_from(n.max(0)).unwrap_or(usize::MAX).min(deck.len());
    deck[deck.len() - k..].iter().rev().copied().collect()
}

/// Open the look-at-the-top-`n` decision: discard any, put the rest back in any order.
pub fn look_top(st: &mut State, p: u8, n: i64, source: &str) {
    let cards = top_cards(st, p, n);
    if cards.is_empty() {
        return;
    }
    let names: Vec<String> = cards.iter().map(|&c| card_name(st, c)).collect();
    let k = cards.len();
    let text = format!("Player {} looks at the top {k} card(s) of the deck ({source}): {}.", p + 1, names.join(", "));
    let public = format!("Player {} looks at the top {k} card(s) of the deck ({source}).", p + 1);
    log_private(st, "ability", Some(p), text, p, public, Vec::new());
    let d = data([("cards", ids(&cards)), ("source", J::from(source))]);
    ask(st, "look_top_n", p, cards, d);
}

/// Look at one card from the top of your deck per guardian on this card; discard any of
/// them, put the rest back in any order (file 003, Truesight Archer).
fn truesight(st: &mut State, p: u8, d: &Data) {
    let card = card_at(d, "card");
    if usize::from(card) >= st.cards.len() {
        return;
    }
    let n = stats(st, card).get(Symbol::Guardian);
    if n > 0 {
        look_top(st, p, n, "Truesight Archer");
    }
}

/// Look at the top `count` cards of your deck (the on-deck card is not part of it);
/// discard any, put the rest back in any order (file 003, Sorcel and Le Que).
fn look_top_n(st: &mut State, p: u8, count: i64, d: &Data) {
    let name = if get(d, "card").is_some() {
        let layer = usize::try_from(int(d, "layer")).ok();
        let copy = st.cards.get(usize::from(card_at(d, "card"))).and_then(|l| layer.and_then(|i| l.get(i)).copied());
        copy.map_or_else(String::new, |c| st.cat.copy_type(c).name.to_string())
    } else {
        "ability".to_owned()
    };
    look_top(st, p, count, &name);
}

fn look_apply(st: &mut State, pd: &Pending, action: &Notation) {
    let p = pd.player;
    let mut cards = cards_at(st, &pd.data, "cards");
    if action.verb == Verb::Discard {
        let Some(c) = card_arg(st, action, 0) else { return };
        let Some(i) = cards.iter().position(|&x| x == c) else { return };
        cards.remove(i);
        discard_looked_at(st, p, c);
        if !cards.is_empty() {
            let d = data([("cards", ids(&cards)), ("source", J::from(text(&pd.data, "source")))]);
            ask(st, "look_top_n", p, cards, d);
        }
        return;
    }
    order_next(st, p, cards, Vec::new());
}

/// Put the kept cards back one at a time, top first; the last goes by itself.
fn order_next(st: &mut State, p: u8, left: Vec<CardId>, mut placed: Vec<CardId>) {
    if distinct_cards(st, &left).len() > 1 {
        let d = data([("left", ids(&left)), ("placed", ids(&placed))]);
        ask(st, "order_top", p, left, d);
        return;
    }
    placed.extend(left);
    let Some(pl) = st.players.get_mut(usize::from(p)) else { return };
    let k = placed.len();
    pl.deck.retain(|c| !placed.contains(c));
    pl.deck.extend(placed.iter().rev());
    pl.known_top = placed.iter().rev().copied().collect();
    if k > 0 {
        let names: Vec<String> = placed.iter().map(|&c| card_name(st, c)).collect();
        let text = format!("Player {} puts back {} (top first).", p + 1, names.join(", "));
        let public = format!("Player {} puts {k} card(s) back on the deck.", p + 1);
        log_private(st, "ability", Some(p), text, p, public, Vec::new());
    }
}

fn order_top_apply(st: &mut State, pd: &Pending, action: &Notation) {
    let Some(c) = card_arg(st, action, 0) else { return };
    let mut left = cards_at(st, &pd.data, "left");
    let Some(i) = left.iter().position(|&x| x == c) else { return };
    left.remove(i);
    let mut placed = cards_at(st, &pd.data, "placed");
    placed.push(c);
    order_next(st, pd.player, left, placed);
}

// -- Lore Keeper: reveal until two Cursed Lands, keep one in the field -------------------

/// Reveal cards one at a time from the top of your deck until `count` cards with a Cursed
/// Land are revealed (shuffling the discard pile in when the deck runs out; with too few,
/// all). Put one revealed card into your field (placed: no When Played), the rest into
/// your discard pile (file 003).
fn lore_keeper(st: &mut State, p: u8, want: i64) {
    let mut found = 0;
    while found < want {
        let Some(c) = take_top(st, p) else { break };
        st.players[usize::from(p)].aside.push(c);
        mark_seen(st, c);
        found += i64::from(stats(st, c).has_cursed_land);
        let text = format!("Player {} reveals {} (Lore Keeper).", p + 1, card_name(st, c));
        log(st, "ability", Some(p), text, Vec::new());
    }
    if !st.players[usize::from(p)].aside.is_empty() {
        ask(st, "lore_keeper", p, Vec::new(), Vec::new());
    }
}

fn lore_apply(st: &mut State, pd: &Pending, action: &Notation) {
    let p = pd.player;
    let Some(c) = card_arg(st, action, 0) else { return };
    let Some(pl) = st.players.get_mut(usize::from(p)) else { return };
    pl.field.push(c);
    let aside = std::mem::take(&mut pl.aside);
    for x in aside {
        if x != c {
            discard_card(st, p, x);
        }
    }
    let text = format!(
        "Player {} places {} into the field; the other revealed cards go to the discard pile.",
        p + 1,
        card_name(st, c)
    );
    log(st, "ability", Some(p), text, Vec::new());
}

// -- On spoiling: Spirits of Decay, Witches of Deephollow --------------------------------

/// When you spoil with this card in the field, gain curse tokens equal to the curse
/// symbols on this card (printed symbols only, text ignored: file 003).
fn spirits_of_decay(st: &mut State, p: u8, d: &Data) {
    let card = card_at(d, "card");
    if usize::from(card) >= st.cards.len() {
        return;
    }
    let n = stats(st, card).printed[Symbol::Curse as usize];
    gain_curse(st, p, n, "Spirits of Decay");
}

/// When you spoil with this card in the field: gain 1 VP token per card fewer than
/// `below` (9) in your field, then take another turn after this one (file 003).
fn witches(st: &mut State, p: u8, below: i64) {
    let field = i64::try_from(st.players[usize::from(p)].field.len()).unwrap_or(i64::MAX);
    gain_vp(st, p, (below - field).max(0), false, "Witches of Deephollow");
    st.extra_turns.push(p);
    log(
        st,
        "ability",
        Some(p),
        format!("Player {} will take another turn (Witches of Deephollow).", p + 1),
        Vec::new(),
    );
}

// -- Vales: Echoing Waterfalls (an opponent spoils), Flame Geysers (when bought) ---------

/// When an opponent spoils you may discard your on-deck card and reveal a new one (file
/// 003, Echoing Waterfalls). A resulting spoil waits for your Planting phase.
fn echoing(st: &mut State, q: u8, d: &Data) {
    if st.players[usize::from(q)].on_deck.is_some() {
        let spoiler = get(d, "spoiler").cloned().unwrap_or(J::Null);
        ask(st, "echoing_waterfalls", q, Vec::new(), data([("spoiler", spoiler)]));
    }
}

fn echo_legal(st: &State, pd: &Pending) -> Vec<Notation> {
    let mut out = Vec::new();
    if let Some(od) = st.players.get(usize::from(pd.player)).and_then(|pl| pl.on_deck) {
        out.push(act(Verb::Discard, &[&format!("#{od}")]));
    }
    out.push(act(Verb::Keep, &[]));
    out
}

fn echo_apply(st: &mut State, pd: &Pending, action: &Notation) {
    let q = pd.player;
    let Some(pl) = st.players.get_mut(usize::from(q)) else { return };
    if action.verb == Verb::Keep {
        return;
    }
    let Some(old) = pl.on_deck.take() else { return };
    discard_card(st, q, old);
    let text = format!("Player {} discards the on-deck {} (Echoing Waterfalls).", q + 1, card_name(st, old));
    log(st, "ability", Some(q), text, Vec::new());
    reveal(st, q);
}

/// Choose: every player gains curse tokens, or every player gains VP tokens from the
/// reserve (not the pool), equal to the negative VP on that player's vales (file 003).
fn flame_geysers(st: &mut State, p: u8) {
    let text = format!(
        "Player {}'s Flame Geysers: every player will gain curse tokens or VP tokens equal to the negative VP on \
         their vales.",
        p + 1
    );
    log(st, "ability", Some(p), text, Vec::new());
    ask(st, "flame_geysers", p, Vec::new(), Vec::new());
}

fn vale_neg(st: &State, q: usize) -> i64 {
    st.players[q]
        .vales
        .iter()
        .filter_map(|&v| st.vale_types.get(usize::from(v)).and_then(|&t| st.cat.vales.get(usize::from(t))))
        .map(|vt| vt.neg_vp)
        .sum()
}

fn flame_apply(st: &mut State, pd: &Pending, action: &Notation) {
    let curses = arg(action, 0) == "curses";
    let text = format!(
        "Player {} chooses {} tokens for every player (Flame Geysers).",
        pd.player + 1,
        if curses { "curse" } else { "VP" }
    );
    log(st, "ability", Some(pd.player), text, Vec::new());
    for q in 0..st.players.len() {
        let n = vale_neg(st, q);
        let Ok(q8) = u8::try_from(q) else { break };
        if curses {
            gain_curse(st, q8, n, "Flame Geysers");
        } else {
            gain_vp(st, q8, n, true, "Flame Geysers");
        }
    }
}

// -- the decisions' entry points ---------------------------------------------------------

/// The legal actions of one of [`DECISIONS`], in Python's order.
pub fn legal(st: &State, pd: &Pending) -> Option<Vec<Notation>> {
    Some(match &*pd.kind {
        "deepwood_veteran" => vec![act(Verb::Give, &["vp"]), act(Verb::Choose, &["curses"])],
        "griffin_give" => {
            let mut out = griffin_gives(st, pd.player);
            out.push(act(Verb::Skip, &[]));
            out
        }
        "griffin_claim" => griffin_claim_legal(st, pd),
        "ranger_captain" => vec![act(Verb::Take, &["vale"]), act(Verb::Skip, &[])],
        "snapjaw" => snapjaw_legal(st, pd),
        "rockspine_zenith" => rockspine_legal(st, pd),
        "look_top_n" => {
            let mut out: Vec<Notation> = distinct_cards(st, &cards_at(st, &pd.data, "cards"))
                .into_iter()
                .map(|c| act(Verb::Discard, &[&format!("#{c}")]))
                .collect();
            out.push(act(Verb::Keep, &[]));
            out
        }
        "order_top" => distinct_cards(st, &cards_at(st, &pd.data, "left"))
            .into_iter()
            .map(|c| act(Verb::Order, &[&format!("#{c}")]))
            .collect(),
        "lore_keeper" => {
            let aside = st.players.get(usize::from(pd.player)).map_or(&[][..], |pl| &pl.aside);
            distinct_cards(st, aside).into_iter().map(|c| act(Verb::Take, &[&format!("#{c}")])).collect()
        }
        "echoing_waterfalls" => echo_legal(st, pd),
        "flame_geysers" => vec![act(Verb::Choose, &["curses"]), act(Verb::Choose, &["vp"])],
        _ => return None,
    })
}

/// Apply a legal action to one of [`DECISIONS`] (already popped); the decision back when it
/// is not this module's.
pub fn apply(st: &mut State, pd: Pending, action: &Notation) -> Option<Pending> {
    if !DECISIONS.contains(&&*pd.kind) {
        return Some(pd);
    }
    if usize::from(pd.player) >= st.players.len() {
        return None; // no such seat (a corrupt decision): nothing to do
    }
    match &*pd.kind {
        "deepwood_veteran" => deepwood_apply(st, &pd, action),
        "griffin_give" => griffin_give_apply(st, &pd, action),
        "griffin_claim" => griffin_claim_apply(st, &pd, action),
        "ranger_captain" => ranger_apply(st, &pd, action),
        "snapjaw" => snapjaw_apply(st, &pd, action),
        "rockspine_zenith" => rockspine_apply(st, &pd, action),
        "look_top_n" => look_apply(st, &pd, action),
        "order_top" => order_top_apply(st, &pd, action),
        "lore_keeper" => lore_apply(st, &pd, action),
        "echoing_waterfalls" => echo_apply(st, &pd, action),
        "flame_geysers" => flame_apply(st, &pd, action),
        _ => return Some(pd),
    }
    None
}

/// What other seats read while one of [`DECISIONS`] is open.
pub fn describe(_st: &State, pd: &Pending) -> Option<String> {
    let d = &pd.data;
    Some(match &*pd.kind {
        "deepwood_veteran" => format!(
            "player {} gives player {} a VP token or takes {} curse tokens (Deepwood Veteran)",
            pd.player + 1,
            int(d, "to") + 1,
            int(d, "curse")
        ),
        "griffin_give" => "may give a level-2 vale to claim level-1 vales (Griffin Rider)".to_owned(),
        "griffin_claim" => {
            format!("claiming up to {} level-1 vale(s) of player {}", int(d, "left"), int(d, "opponent") + 1)
        }
        "ranger_captain" => format!("looking at the top level-{} vale (Ranger Captain)", int(d, "level")),
        "snapjaw" => format!("looking at the top level-{} advancement (Snapjaw)", int(d, "level")),
        "rockspine_zenith" => "choosing a free advancement (Rockspine Zenith)".to_owned(),
        "look_top_n" => format!("looking at the top cards of the deck ({})", text(d, "source")),
        "order_top" => "putting cards back on the deck".to_owned(),
        "lore_keeper" => "choosing a revealed card for the field (Lore Keeper)".to_owned(),
        "echoing_waterfalls" => {
            format!("player {} may replace the on-deck card (Echoing Waterfalls)", pd.player + 1)
        }
        "flame_geysers" => "choosing curse tokens or VP tokens for all players (Flame Geysers)".to_owned(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::Catalogue;
    use crate::rulesets::get_ruleset;
    use crate::setup::new_state;

    fn game() -> State {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/catalogue_base+twilight_garden.json");
        let cat = Catalogue::shared(&std::fs::read_to_string(path).unwrap(), "tg").unwrap();
        new_state(cat, get_ruleset("yucata").unwrap(), 3, 7u64.into(), true).unwrap()
    }

    fn pending(kind: &str, player: u8, d: Data) -> Pending {
        Pending { kind: kind.into(), player, data: d, private: Vec::new() }
    }

    #[test]
    fn describes_its_decisions_as_python_does() {
        // The texts are the Python engine's `DECISIONS[kind].describe` for the same data.
        let st = game();
        let cases: [(&str, u8, Data, &str); 11] = [
            (
                "deepwood_veteran",
                2,
                data([("to", J::Int(0)), ("curse", J::Int(2))]),
                "player 3 gives player 1 a VP token or takes 2 curse tokens (Deepwood Veteran)",
            ),
            ("griffin_give", 0, Vec::new(), "may give a level-2 vale to claim level-1 vales (Griffin Rider)"),
            (
                "griffin_claim",
                0,
                data([("opponent", J::Int(1)), ("left", J::Int(2))]),
                "claiming up to 2 level-1 vale(s) of player 2",
            ),
            (
                "ranger_captain",
                1,
                data([("looked_vale", J::Int(3)), ("level", J::Int(1)), ("shows", J::from("vale"))]),
                "looking at the top level-1 vale (Ranger Captain)",
            ),
            (
                "snapjaw",
                1,
                data([("copy", J::Int(0)), ("level", J::Int(3)), ("shows", J::from("copy"))]),
                "looking at the top level-3 advancement (Snapjaw)",
            ),
            (
                "rockspine_zenith",
                0,
                data([("min_cost", J::Int(1)), ("max_cost", J::Int(14))]),
                "choosing a free advancement (Rockspine Zenith)",
            ),
            (
                "look_top_n",
                0,
                data([("cards", ids(&[3])), ("source", J::from("Sorcel"))]),
                "looking at the top cards of the deck (Sorcel)",
            ),
            ("order_top", 0, data([("left", ids(&[3, 4])), ("placed", ids(&[]))]), "putting cards back on the deck"),
            ("lore_keeper", 2, Vec::new(), "choosing a revealed card for the field (Lore Keeper)"),
            (
                "echoing_waterfalls",
                1,
                data([("spoiler", J::Int(0))]),
                "player 2 may replace the on-deck card (Echoing Waterfalls)",
            ),
            ("flame_geysers", 0, Vec::new(), "choosing curse tokens or VP tokens for all players (Flame Geysers)"),
        ];
        for (kind, player, d, want) in cases {
            assert_eq!(describe(&st, &pending(kind, player, d)).as_deref(), Some(want), "{kind}");
        }
        assert_eq!(describe(&st, &pending("sleeve", 0, Vec::new())), None);
    }

    #[test]
    fn looking_at_more_cards_than_the_deck_holds_shuffles_the_discard_pile_in_below_them() {
        let mut st = game();
        let pl = &mut st.players[0];
        let mut all: Vec<CardId> = std::mem::take(&mut pl.deck);
        pl.deck = all.drain(..2).collect();
        pl.discard = all;
        let deck = pl.deck.clone();
        let looked = top_cards(&mut st, 0, 4);
        // The two cards of the deck are still its top two, top first; the look goes on below.
        assert_eq!(looked[..2], [deck[1], deck[0]]);
        assert_eq!(looked.len(), 4);
        assert!(st.players[0].discard.is_empty());
        assert_eq!(st.players[0].deck[st.players[0].deck.len() - 2..], deck[..]);
        assert_eq!(st.events.last().map(|e| e.kind.as_ref()), Some("shuffle"));
    }

    #[test]
    fn kept_cards_go_back_in_the_chosen_order_and_their_player_knows_it() {
        let mut st = game();
        let deck = st.players[0].deck.clone();
        let n = deck.len();
        // Put back two identical cards by themselves after choosing the first: no more asks.
        let (a, b) = (deck[n - 1], deck[n - 2]);
        order_next(&mut st, 0, vec![b], vec![a]);
        assert!(st.pending.is_empty());
        assert_eq!(st.players[0].deck[n - 2..], [b, a]);
        assert_eq!(st.players[0].known_top, vec![b, a]);
        assert_eq!(st.events.last().map(|e| e.private_to), Some(Some(0)));
    }

    #[test]
    fn a_malformed_answer_changes_nothing_and_does_not_panic() {
        let st = game();
        let before = crate::serialize::dumps(&st);
        let bad = act(Verb::Order, &["#notacard"]);
        // Echoing Waterfalls and Flame Geysers read only the verb: any other verb than
        // `keep` / an argument other than `curses` is their other answer.
        for kind in DECISIONS.iter().filter(|k| !["echoing_waterfalls", "flame_geysers"].contains(k)) {
            let mut st = st.clone();
            let d = data([("left", J::Str("x".into())), ("opponent", J::Int(99)), ("copy", J::Int(-1))]);
            assert!(apply(&mut st, pending(kind, 0, d), &bad).is_none(), "{kind}");
            // (Deepwood Veteran's other answer is the curse tokens; Ranger Captain's puts the
            // vale back, which it logs.)
            if !["deepwood_veteran", "ranger_captain"].contains(kind) {
                assert_eq!(crate::serialize::dumps(&st), before, "{kind}");
            }
        }
        let mut other = st.clone();
        assert!(apply(&mut other, pending("sleeve", 0, Vec::new()), &bad).is_some());
        // Cards and seats that are not in the game (a corrupt save, or an answer that was
        // never offered) change nothing.
        let stray = act(Verb::Discard, &["#9999"]);
        for kind in ["look_top_n", "order_top", "lore_keeper"] {
            let mut other = st.clone();
            let d = data([("cards", ids(&[9999])), ("left", ids(&[9999, 9998])), ("placed", ids(&[9997]))]);
            assert!(apply(&mut other, pending(kind, 0, d), &stray).is_none(), "{kind}");
            assert_eq!(crate::serialize::dumps(&other), before, "{kind}");
        }
        for kind in DECISIONS {
            let mut other = st.clone();
            assert!(apply(&mut other, pending(kind, 9, Vec::new()), &stray).is_none(), "{kind}");
            assert_eq!(crate::serialize::dumps(&other), before, "{kind}");
        }
    }

    #[test]
    fn identical_cards_are_one_choice() {
        let st = game();
        let deck = &st.players[0].deck;
        let distinct = distinct_cards(&st, deck);
        assert!(distinct.len() < deck.len());
        let mut makeups: Vec<&[CopyId]> = distinct.iter().map(|&c| &*st.cards[usize::from(c)]).collect();
        makeups.dedup();
        assert_eq!(makeups.len(), distinct.len());
        assert!(distinct.windows(2).all(|w| w[0] < w[1]));
    }
}

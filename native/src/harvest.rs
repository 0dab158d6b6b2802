//! Twin of mysticvale/engine/harvest.py: the Harvest phase: mana and spirit symbols,
//! Harvest abilities, VP and curse tokens, vale and advancement buys, the mana token, and
//! (yucata, German rules) the spirit trade.
//!
//! Everything in the Harvest may be done in any order (file 000), so each of these is an
//! action the player picks; the phase ends with `finish`.
//!
//! Python keeps the buy options of a state in `st.memo`; here they are computed when
//! needed (the same list: the memo is only a cache).
#![forbid(unsafe_code)]

use std::fmt;
use std::sync::Arc;

use crate::actions::{Notation, Verb};
use crate::card_types::{Ability, Effect, Slot, Symbol, Trigger, SLOTS};
use crate::flow::ability_ref;
use crate::leaders::{apply_upgrade, upgrade_actions};
use crate::pyjson::J;
use crate::registry;
use crate::sleeve::{can_sleeve, SleeveStats};
use crate::state::{CardId, CopyId, Purchase, State, Step, ValeId};
use crate::zones::{card_name, card_stats, field_sum, field_totals, gain_curse, gain_vp, log, schedule, step, Data};

/// Spare spirit symbols per VP (German rules, yucata).
pub const SPIRIT_TRADE: i64 = 3;
/// Advancements (and leader upgrades) a player may buy in one Harvest (file 000).
pub const MAX_ADV_BUYS: i64 = 2;
/// Vales a player may buy in one Harvest (file 000).
pub const MAX_VALE_BUYS: i64 = 2;

/// The step kinds this module runs.
pub const STEPS: &[&str] = &["harvest_end", "harvest_start"];

/// Run a step of one of [`STEPS`] (false: not this module's kind).
pub fn run_step(st: &mut State, s: &Step) -> bool {
    match &*s.kind {
        "harvest_start" => step_harvest_start(st, s.player),
        "harvest_end" => step_harvest_end(st, s.player),
        _ => return false,
    }
    true
}

// -- resources ---------------------------------------------------------------------

/// A player's field as the Harvest reads it: each card's stats and the symbol totals,
/// worked out once for a whole list of legal actions (Python memoises card stats instead).
struct Field {
    /// Each field card with its stats (shared, not copied), in field order.
    cards: Vec<(CardId, Arc<SleeveStats>)>,
    /// Every symbol summed over the field (`zones::field_totals`).
    totals: [i64; 10],
}

impl Field {
    fn of(st: &State, p: u8) -> Field {
        let field = &st.players[usize::from(p)].field;
        let mut totals = [0i64; 10];
        let mut cards = Vec::with_capacity(field.len());
        for &c in field {
            let s = card_stats(st, c);
            for (o, v) in totals.iter_mut().zip(s.symbols) {
                *o += v;
            }
            cards.push((c, s));
        }
        Field { cards, totals }
    }
}

/// Mana to spend now: the field's mana plus the token's and abilities', less what was spent.
pub fn mana_available(st: &State) -> i64 {
    let t = &st.turn;
    field_sum(st, t.player, Symbol::Mana) + t.mana_bonus - t.mana_spent
}

fn mana_in(st: &State, f: &Field) -> i64 {
    let t = &st.turn;
    f.totals[Symbol::Mana as usize] + t.mana_bonus - t.mana_spent
}

/// Spirit symbols in the field plus those from abilities: animal, forest, sky, wild.
pub fn spirits_available(st: &State) -> [i64; 4] {
    spirits_of(st, &field_totals(st, st.turn.player))
}

fn spirits_of(st: &State, tot: &[i64; 10]) -> [i64; 4] {
    let t = &st.turn;
    let kinds = [Symbol::Animal, Symbol::Forest, Symbol::Sky, Symbol::Wild];
    let mut out = [0; 4];
    for (i, s) in kinds.into_iter().enumerate() {
        out[i] = tot[s as usize] + t.spirit_bonus[i];
    }
    out
}

/// What is left over when symbols `have` (animal, forest, sky, wild) pay `need` (animal,
/// forest, sky, any): the symbols not needed for the named kinds, less the "any" ones, or
/// `None` when the wilds cannot cover the named kinds missing. Each symbol pays once; a
/// wild pays for any; "any" takes any symbol (file 000). Negative: "any" cannot be paid.
fn left_over(have: &[i64; 4], need: &[i64; 4]) -> Option<i64> {
    let mut wild = have[3];
    let mut spare = 0;
    for k in 0..3 {
        if need[k] > have[k] {
            wild -= need[k] - have[k];
        } else {
            spare += have[k] - need[k];
        }
    }
    (wild >= 0).then_some(spare + wild - need[3])
}

/// Can symbols `have` (animal, forest, sky, wild) pay `need` (animal, forest, sky, any)?
pub fn can_pay(have: &[i64; 4], need: &[i64; 4]) -> bool {
    left_over(have, need).is_some_and(|n| n >= 0)
}

/// Spirit symbols not needed to pay for what was bought this turn: the most "any" symbols
/// that could still be paid on top of it (the largest n with `can_pay(have, need + n any)`).
pub fn spare_spirits(st: &State) -> i64 {
    spare_of(st, &spirits_available(st))
}

fn spare_of(st: &State, have: &[i64; 4]) -> i64 {
    left_over(have, &st.turn.spirit_spent).map_or(0, |n| n.max(0))
}

// -- the start of the Harvest ------------------------------------------------------

/// Gain the VP tokens and curse tokens shown on the field's cards (file 000, 003).
fn step_harvest_start(st: &mut State, p: u8) {
    let field = st.players[usize::from(p)].field.clone();
    for c in field {
        score_card(st, p, c);
    }
}

/// A card in the field during the Harvest gives its VP and curse tokens, once.
pub fn score_card(st: &mut State, p: u8, card: CardId) {
    if st.turn.scored.contains(&card) {
        return;
    }
    st.turn.scored.push(card);
    let sc = card_stats(st, card);
    let (vp, curses) = (sc.get(Symbol::Vp), sc.get(Symbol::Curse));
    if vp <= 0 && curses <= 0 {
        return; // nothing gained, nothing logged
    }
    let name = card_name(st, card);
    gain_vp(st, p, vp, false, &name);
    gain_curse(st, p, curses, &name);
}

// -- advancement buys --------------------------------------------------------------

/// A place in the commons: a level's face-up position, or a Fertile Soil slot. Written
/// `2.3` (level 2, third card) or `soil.top`, as in `buy 2.3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Market {
    /// Level 1-3, position 1-3.
    Commons(u8, u8),
    /// A Fertile Soil slot.
    Soil(Slot),
}

impl fmt::Display for Market {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Market::Commons(level, pos) => write!(f, "{level}.{pos}"),
            Market::Soil(slot) => write!(f, "soil.{}", slot.name()),
        }
    }
}

impl Market {
    /// The market's word (`2.3`, `soil.top`), as [`fmt::Display`] writes it.
    pub fn word(&self) -> Box<str> {
        match self {
            // Levels and places are single digits (3 levels, at most 4 places).
            Market::Commons(level, pos) if *level < 10 && *pos < 10 => {
                let mut out = String::with_capacity(3);
                out.push(char::from(b'0' + level));
                out.push('.');
                out.push(char::from(b'0' + pos));
                out.into_boxed_str()
            }
            Market::Commons(..) => self.to_string().into_boxed_str(),
            Market::Soil(slot) => {
                let mut out = String::with_capacity(11);
                out.push_str("soil.");
                out.push_str(slot.name());
                out.into_boxed_str()
            }
        }
    }

    /// Is this the market the action's word names (Python compares the words)?
    fn is(&self, word: &str) -> bool {
        match self {
            Market::Commons(level, pos) => {
                let mut b = [0u8; 3];
                b[0] = b'0' + level;
                b[1] = b'.';
                b[2] = b'0' + pos;
                word.as_bytes() == b
            }
            Market::Soil(slot) => word.strip_prefix("soil.") == Some(slot.name()),
        }
    }
}

/// (card, discount) for field cards whose ability makes advancements sleeved on them
/// cheaper (Earthchant Chorus, Council of Owls); usable any number of times (file 000).
pub fn discount_cards(st: &State) -> Vec<(CardId, i64)> {
    discounts_in(st, &Field::of(st, st.turn.player))
}

fn discounts_in(st: &State, f: &Field) -> Vec<(CardId, i64)> {
    let mut out = Vec::new();
    for (c, s) in &f.cards {
        let c = *c;
        if !s.has_trigger(&st.cat, Trigger::BuyDiscount) {
            continue; // most cards have no such ability: skip them cheaply
        }
        let new = &st.turn.new_layers;
        for (layer, _, r) in s.by_trigger(&st.cat, Trigger::BuyDiscount) {
            if new.contains(&[i64::from(c), i64::from(layer)]) {
                continue;
            }
            let amount = match r.ability(&st.cat).effect {
                Effect::DiscountOnThisCard { amount } => amount.unwrap_or(0),
                _ => 0,
            };
            out.push((c, amount));
        }
    }
    out
}

/// Can every bought advancement be sleeved on the field at once (file 000, "you are not
/// allowed to buy an advancement if you do not have a legal place to sleeve it")?
pub fn placement_exists(st: &State, purchases: &[Purchase]) -> bool {
    placement_exists_over(st, purchases, None)
}

/// [`placement_exists`] with one field card taken as having other layers (`over`: a
/// placement being tried, in the Discard phase's sleeving).
pub fn placement_exists_over(st: &State, purchases: &[Purchase], over: Option<(CardId, &[CopyId])>) -> bool {
    let Some(pl) = st.players.get(usize::from(st.turn.player)) else { return purchases.is_empty() };
    let field = &pl.field;
    match purchases {
        [] => return true,
        // The common case, one advancement: any card it fits on will do.
        [one] if one.target.is_none() => {
            return field.iter().any(|&c| fits(st, layers_of(st, c, over), one.copy));
        }
        // Two free ones (the most a Harvest buys): the first on some card, the second on
        // another card it fits on, or on that card after the first.
        [a, b] if a.target.is_none() && b.target.is_none() => {
            let b_fits = |c: CardId| fits(st, layers_of(st, c, over), b.copy);
            let b_places = field.iter().filter(|&&c| b_fits(c)).count();
            return field.iter().any(|&c| {
                let now = layers_of(st, c, over);
                fits(st, now, a.copy)
                    && (b_places > usize::from(b_fits(c)) || fits(st, &sleeve_layers(st, now, a.copy), b.copy))
            });
        }
        _ => {}
    }
    let mut layers: Vec<(CardId, Vec<CopyId>)> = field.iter().map(|&c| (c, layers_of(st, c, over).to_vec())).collect();
    // Declared purchases first, then the free ones (Python's `fixed + free`).
    let items: Vec<Purchase> = purchases
        .iter()
        .filter(|pu| pu.target.is_some())
        .chain(purchases.iter().filter(|pu| pu.target.is_none()))
        .copied()
        .collect();
    place(st, &items, field, &mut layers)
}

/// May `copy` be sleeved on a card with these layers (Python's `Catalogue.fits`)?
pub fn fits(st: &State, layers: &[CopyId], copy: CopyId) -> bool {
    usize::from(copy) < st.cat.copies.len() && can_sleeve(&st.cat, layers, copy)
}

/// A card's layers, or what `over` puts in their place (none for an unknown card).
pub fn layers_of<'a>(st: &'a State, c: CardId, over: Option<(CardId, &'a [CopyId])>) -> &'a [CopyId] {
    match over {
        Some((card, layers)) if card == c => layers,
        _ => st.cards.get(usize::from(c)).map_or(&[][..], |l| &l[..]),
    }
}

/// Try every card for the first purchase, and the rest on what that leaves (a search with
/// the card put back as it was when a choice leads nowhere).
fn place(st: &State, items: &[Purchase], field: &[CardId], layers: &mut Vec<(CardId, Vec<CopyId>)>) -> bool {
    let Some((pu, rest)) = items.split_first() else { return true };
    let declared;
    let targets: &[CardId] = match pu.target {
        Some(t) => {
            declared = [t];
            &declared
        }
        None => field,
    };
    for &c in targets {
        let Some(i) = layers.iter().position(|(k, _)| *k == c) else { continue };
        let Some((_, now)) = layers.get(i) else { continue };
        if !fits(st, now, pu.copy) {
            continue;
        }
        let after = sleeve_layers(st, now, pu.copy);
        let Some(slot) = layers.get_mut(i) else { continue };
        let before = std::mem::replace(&mut slot.1, after);
        if place(st, rest, field, layers) {
            return true;
        }
        if let Some(slot) = layers.get_mut(i) {
            slot.1 = before;
        }
    }
    false
}

/// The card after sleeving `copy`: on top, or, for an eclipse advancement whose slot is
/// taken, underneath (file 003: an eclipse may be sleeved under another advancement).
pub fn sleeve_layers(st: &State, layers: &[CopyId], copy: CopyId) -> Vec<CopyId> {
    let cat = &st.cat;
    let mut out = Vec::with_capacity(layers.len() + 1);
    if let Some(new) = cat.copies.get(usize::from(copy)) {
        let eclipse = cat.types.get(usize::from(new.type_id)).is_some_and(|t| t.eclipse);
        if eclipse
            && layers.iter().any(|&i| cat.copies.get(usize::from(i)).is_some_and(|c| c.slots.overlaps(new.slots)))
        {
            out.push(copy);
            out.extend_from_slice(layers);
            return out;
        }
    }
    out.extend_from_slice(layers);
    out.push(copy);
    out
}

/// The advancement copy a market name points at (`2.3`, `soil.top`); `None` for an empty
/// place, a Fertile Soil slot with no copy left, or a word that names no place.
pub fn market_copy(st: &State, market: &str) -> Option<CopyId> {
    if let Some(slot) = market.strip_prefix("soil.") {
        let slot = SLOTS.into_iter().find(|s| s.name() == slot)?;
        if st.soil_left[slot as usize] <= 0 {
            return None;
        }
        return Some(st.cat.soil_copy(slot));
    }
    // Python reads `int(x)` of both parts: signs, spaces and underscores included.
    let (level, pos) = market.split_once('.')?;
    let level: i64 = py_int(level)?;
    let pos: i64 = py_int(pos)?;
    let row = st.commons.get(usize::try_from(level.checked_sub(1)?).ok()?)?;
    // A position of 0 or less counts from the end, as a Python index does.
    let i = pos.checked_sub(1)?;
    let i = if i < 0 { i + 3 } else { i };
    *row.get(usize::try_from(i).ok()?)?
}

/// Python's `int(text)` for the decimal words a market name may hold.
fn py_int(text: &str) -> Option<i64> {
    let t = text.trim_matches(|c: char| c.is_whitespace());
    let (neg, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    if digits.is_empty() || digits.starts_with('_') || digits.ends_with('_') || digits.contains("__") {
        return None;
    }
    let clean: String = digits.chars().filter(|&c| c != '_').collect();
    if !clean.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let v: i64 = clean.parse().ok()?;
    Some(if neg { -v } else { v })
}

/// Every place something can be bought from now, with its copy: the commons by level and
/// position, then the Fertile Soil slots with copies left (Python's `_markets`).
pub fn markets(st: &State) -> Vec<(Market, CopyId)> {
    let mut out = Vec::with_capacity(12);
    for (level, row) in (1u8..).zip(&st.commons) {
        for (pos, c) in (1u8..).zip(row) {
            if let Some(c) = c {
                out.push((Market::Commons(level, pos), *c));
            }
        }
    }
    for slot in SLOTS {
        if st.soil_left[slot as usize] > 0 {
            out.push((Market::Soil(slot), st.cat.soil_copy(slot)));
        }
    }
    out
}

/// One advancement buy possible now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuyOption {
    /// Where it is bought.
    pub market: Market,
    /// The copy bought.
    pub copy: CopyId,
    /// The card declared to sleeve it on (for its discount), if any.
    pub target: Option<CardId>,
    /// Its price in mana.
    pub price: i64,
}

/// Every advancement buy possible now (Python's `buy_options`): `free` buys (Rockspine
/// Zenith) cost nothing, count no buy and take only copies costing `min_cost` to
/// `max_cost`.
pub fn buy_options(st: &State, free: bool, max_cost: Option<i64>, min_cost: i64) -> Vec<BuyOption> {
    if !free && st.turn.adv_buys >= MAX_ADV_BUYS {
        return Vec::new();
    }
    buy_options_in(st, &Field::of(st, st.turn.player), free, max_cost, min_cost, None)
}

/// [`buy_options`] of one place only (`only`: its word, as in `buy 2.3`), or of every place.
fn buy_options_in(
    st: &State,
    f: &Field,
    free: bool,
    max_cost: Option<i64>,
    min_cost: i64,
    only: Option<&str>,
) -> Vec<BuyOption> {
    let t = &st.turn;
    if !free && t.adv_buys >= MAX_ADV_BUYS {
        return Vec::new();
    }
    let mana = mana_in(st, f);
    let discounts = discounts_in(st, f);
    let cat = &st.cat;
    let field = &st.players[usize::from(t.player)].field;
    let mut with: Vec<Purchase> = Vec::new();
    let mut placeable = |copy: CopyId, card: Option<CardId>| -> bool {
        if t.purchases.is_empty() {
            // Nothing bought yet: the advancement needs one card it fits on (or, declared
            // onto a card, that card, which the caller checked).
            return card.is_some() || field.iter().any(|&c| can_sleeve(cat, &st.cards[usize::from(c)], copy));
        }
        with.clear();
        with.extend_from_slice(&t.purchases);
        with.push(Purchase { copy, target: card });
        placement_exists(st, &with)
    };
    let mut out = Vec::new();
    for (market, copy) in markets(st) {
        if only.is_some_and(|word| !market.is(word)) {
            continue;
        }
        let cost = cat.copy_type(copy).cost;
        if free && (cost < min_cost || max_cost.is_some_and(|m| cost > m)) {
            continue;
        }
        let price = if free { 0 } else { cost };
        if price <= mana && placeable(copy, None) {
            out.push(BuyOption { market, copy, target: None, price });
        }
        if free {
            continue;
        }
        for &(card, amount) in &discounts {
            let dprice = (cost - amount).max(0);
            if dprice < price
                && dprice <= mana
                && can_sleeve(cat, &st.cards[usize::from(card)], copy)
                && placeable(copy, Some(card))
            {
                out.push(BuyOption { market, copy, target: Some(card), price: dprice });
            }
        }
    }
    out
}

/// Buy an advancement: it leaves the commons (or Fertile Soil), its price is paid, and it
/// waits to be sleeved (`counts`: it is one of the Harvest's buys).
pub fn buy_advancement(
    st: &mut State,
    p: u8,
    market: Market,
    copy: CopyId,
    target: Option<CardId>,
    price: i64,
    counts: bool,
) {
    match market {
        Market::Soil(slot) => st.soil_left[slot as usize] -= 1,
        Market::Commons(level, pos) => {
            if let Some(place) = st
                .commons
                .get_mut(usize::from(level).wrapping_sub(1))
                .and_then(|row| row.get_mut(usize::from(pos).wrapping_sub(1)))
            {
                *place = None;
            }
        }
    }
    st.turn.mana_spent += price;
    if counts {
        st.turn.adv_buys += 1;
    }
    let where_ = target.map_or_else(String::new, |c| format!(" to sleeve on {}", card_name(st, c)));
    let label = st.cat.label(copy).to_owned();
    let text = format!("Player {} buys {label} for {price} mana{where_}.", p + 1);
    log(st, "buy", Some(p), text, vec![("copy".into(), J::from(label))]);
    add_purchase(st, p, copy, target);
}

/// An advancement is bought (or gained free): it waits to be sleeved in the Discard phase,
/// and its When Bought abilities resolve now (file 000).
pub fn add_purchase(st: &mut State, p: u8, copy: CopyId, target: Option<CardId>) {
    st.turn.purchases.push(Purchase { copy, target });
    let n = st.cat.copy_type(copy).abilities.len();
    for k in 0..n {
        if st.cat.copy_type(copy).abilities[k].trigger == Trigger::WhenBought {
            let data = vec![
                ("copy".into(), J::Int(i64::from(copy))),
                ("k".into(), J::Int(k as i64)),
                ("bought".into(), J::Bool(true)),
            ];
            schedule(st, [step("ability", p, data)]);
        }
    }
}

// -- vale buys ---------------------------------------------------------------------

/// Where each vale that may be bought now lies (`1.4`: level 1, fourth place), and the vale.
pub fn vale_options(st: &State) -> Vec<(Market, ValeId)> {
    if st.turn.vale_buys >= st.turn.vale_limit {
        return Vec::new();
    }
    vale_options_for(st, &spirits_available(st))
}

fn vale_options_for(st: &State, have: &[i64; 4]) -> Vec<(Market, ValeId)> {
    let t = &st.turn;
    if t.vale_buys >= t.vale_limit {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (level, row) in (1u8..).zip(&st.vale_rows) {
        for (pos, v) in (1u8..).zip(row) {
            let Some(v) = *v else { continue };
            let Some(vt) = st.vale_types.get(usize::from(v)).and_then(|&i| st.cat.vales.get(usize::from(i))) else {
                continue;
            };
            let need: [i64; 4] = std::array::from_fn(|k| t.spirit_spent[k] + vt.cost[k]);
            if can_pay(have, &need) {
                out.push((Market::Commons(level, pos), v));
            }
        }
    }
    out
}

/// A vale joins a player's vales; its ability is not usable this turn (file 000). Its
/// When Bought abilities resolve when `when_bought`.
pub fn gain_vale(st: &mut State, p: u8, v: ValeId, when_bought: bool) {
    st.players[usize::from(p)].vales.push(v);
    st.turn.new_vales.push(v);
    if !when_bought {
        return;
    }
    let Some(&ti) = st.vale_types.get(usize::from(v)) else { return };
    let n = st.cat.vales.get(usize::from(ti)).map_or(0, |vt| vt.abilities.len());
    for k in 0..n {
        if st.cat.vales[usize::from(ti)].abilities[k].trigger == Trigger::WhenBought {
            let data = vec![
                ("vale".into(), J::Int(i64::from(v))),
                ("k".into(), J::Int(k as i64)),
                ("bought".into(), J::Bool(true)),
            ];
            schedule(st, [step("ability", p, data)]);
        }
    }
}

/// Buy a vale from its row: its spirit cost is paid and it is one of the Harvest's two.
pub fn buy_vale(st: &mut State, p: u8, market: Market, v: ValeId) {
    if let Market::Commons(level, pos) = market {
        if let Some(place) = st
            .vale_rows
            .get_mut(usize::from(level).wrapping_sub(1))
            .and_then(|row| row.get_mut(usize::from(pos).wrapping_sub(1)))
        {
            *place = None;
        }
    }
    let Some(vt) = st.vale_types.get(usize::from(v)).and_then(|&i| st.cat.vales.get(usize::from(i))) else { return };
    let (cost, name) = (vt.cost, vt.name.clone());
    for (spent, c) in st.turn.spirit_spent.iter_mut().zip(cost) {
        *spent += c;
    }
    st.turn.vale_buys += 1;
    let text = format!("Player {} buys the vale {name}.", p + 1);
    log(st, "vale", Some(p), text, vec![("vale".into(), J::Str(name))]);
    gain_vale(st, p, v, true);
}

// -- Harvest abilities -------------------------------------------------------------

/// A Harvest ability usable now: how actions name it, the `ability` step's data, and the
/// ability.
#[derive(Clone, Debug)]
pub struct HarvestAbility<'a> {
    /// `#7.2`, `vale.1`, `vale.1.2`.
    pub name: String,
    /// The `ability` step's data (card/layer/k or vale/k, and the key that marks it used).
    pub data: Data,
    /// The ability.
    pub ability: &'a Ability,
}

/// The Harvest abilities of player `p` not used this turn, each usable once a turn: the
/// field's, then the vales' (those bought this turn are not usable yet).
pub fn harvest_abilities(st: &State, p: u8) -> Vec<HarvestAbility<'_>> {
    harvest_abilities_in(st, p, &Field::of(st, p))
}

fn harvest_abilities_in<'a>(st: &'a State, p: u8, f: &Field) -> Vec<HarvestAbility<'a>> {
    let pl = &st.players[usize::from(p)];
    let cat: &'a crate::catalogue::Catalogue = &st.cat;
    let mut out = Vec::new();
    for (c, s) in &f.cards {
        let c = *c;
        if !s.has_trigger(cat, Trigger::Harvest) {
            continue;
        }
        for (layer, k, r) in s.by_trigger(cat, Trigger::Harvest) {
            if st.turn.new_layers.contains(&[i64::from(c), i64::from(layer)]) {
                continue; // sleeved this turn: not active yet (flow.card_abilities)
            }
            let key = format!("c{c}.{layer}.{k}");
            if st.turn.used.iter().any(|u| **u == *key) {
                continue;
            }
            let data = vec![
                ("card".into(), J::Int(i64::from(c))),
                ("layer".into(), J::Int(i64::from(layer))),
                ("k".into(), J::Int(i64::from(k))),
                ("key".into(), J::from(key)),
            ];
            out.push(HarvestAbility { name: ability_ref(c, layer, k), data, ability: r.ability(cat) });
        }
    }
    for (pos, &v) in pl.vales.iter().enumerate() {
        if st.turn.new_vales.contains(&v) {
            continue;
        }
        let Some(vt) = st.vale_types.get(usize::from(v)).and_then(|&i| cat.vales.get(usize::from(i))) else {
            continue;
        };
        for (k, ab) in vt.abilities.iter().enumerate() {
            if ab.trigger != Trigger::Harvest {
                continue;
            }
            let key = format!("v{v}.{k}");
            if st.turn.used.iter().any(|u| **u == *key) {
                continue;
            }
            let name = if k == 0 { format!("vale.{}", pos + 1) } else { format!("vale.{}.{}", pos + 1, k + 1) };
            let data = vec![
                ("vale".into(), J::Int(i64::from(v))),
                ("k".into(), J::Int(k as i64)),
                ("key".into(), J::from(key)),
            ];
            out.push(HarvestAbility { name, data, ability: ab });
        }
    }
    out
}

// -- legal actions and applying them -----------------------------------------------

fn action(verb: Verb, args: &[&str]) -> Notation {
    Notation { verb, args: args.iter().map(|&a| a.into()).collect() }
}

/// The Harvest's legal actions when no decision is open (Python's `HARVEST["legal"]`), in
/// its order: usable Harvest abilities, the mana token, vales, advancements (each place
/// once per declared card), the spirit trade, leader upgrades, `finish`.
pub fn legal(st: &State) -> Vec<Notation> {
    let p = st.turn.player;
    let pl = &st.players[usize::from(p)];
    let f = Field::of(st, p);
    let mut out = Vec::new();
    for h in harvest_abilities_in(st, p, &f) {
        if registry::usable(st, p, h.ability, &h.data) {
            out.push(action(Verb::Use, &[&h.name]));
        }
    }
    if pl.mana_token_active {
        out.push(action(Verb::Token, &[]));
    }
    let have = spirits_of(st, &f.totals);
    for (market, _) in vale_options_for(st, &have) {
        out.push(Notation { verb: Verb::Vale, args: vec![market.word()] });
    }
    let mut seen: Vec<(Market, Option<CardId>)> = Vec::new();
    for o in buy_options_in(st, &f, false, None, 0, None) {
        if seen.contains(&(o.market, o.target)) {
            continue;
        }
        seen.push((o.market, o.target));
        let market = o.market.word();
        out.push(match o.target {
            None => Notation { verb: Verb::Buy, args: vec![market] },
            Some(c) => Notation { verb: Verb::Buy, args: vec![market, "on".into(), crate::actions::card_word(c)] },
        });
    }
    if st.ruleset.spirit_trade && spare_of(st, &have) >= SPIRIT_TRADE {
        out.push(action(Verb::Trade, &[]));
    }
    if !st.cat.leaders.is_empty() {
        out.extend(upgrade_actions(st)); // leaders (file 003); none without leader cards
    }
    out.push(action(Verb::Finish, &[]));
    out
}

/// `#7` -> 7.
fn card_word(word: &str) -> Option<CardId> {
    word.strip_prefix('#')?.parse().ok()
}

/// Apply a legal Harvest action (Python's `HARVEST["apply"]`). An action that names
/// nothing there is changes nothing (the caller checks legality first).
pub fn apply(st: &mut State, action: &Notation) {
    let p = st.turn.player;
    let arg = |i: usize| action.args.get(i).map_or("", |a| &**a);
    match action.verb {
        Verb::Token => {
            st.players[usize::from(p)].mana_token_active = false;
            st.turn.mana_bonus += 1;
            log(st, "token", Some(p), format!("Player {} spends the mana token for 1 mana.", p + 1), Vec::new());
        }
        Verb::Use => {
            let found = harvest_abilities(st, p).into_iter().find(|h| h.name == arg(0)).map(|h| h.data);
            if let Some(data) = found {
                schedule(st, [step("ability", p, data)]);
            }
        }
        Verb::Vale => {
            if let Some((market, v)) = vale_options(st).into_iter().find(|(m, _)| m.is(arg(0))) {
                buy_vale(st, p, market, v);
            }
        }
        Verb::Buy => {
            let target = if action.args.len() == 3 {
                match card_word(arg(2)) {
                    Some(c) => Some(c),
                    None => return,
                }
            } else {
                None
            };
            // Only the named place's options: each place's are worked out on their own.
            let found = if st.turn.adv_buys >= MAX_ADV_BUYS {
                None
            } else {
                let f = Field::of(st, p);
                buy_options_in(st, &f, false, None, 0, Some(arg(0))).into_iter().find(|o| o.target == target)
            };
            if let Some(o) = found {
                buy_advancement(st, p, o.market, o.copy, o.target, o.price, true);
            }
        }
        Verb::Trade => {
            st.turn.spirit_spent[3] += SPIRIT_TRADE;
            gain_vp(st, p, 1, true, "3 spirit symbols traded");
        }
        Verb::Upgrade => {
            if let Some(c) = card_word(arg(0)) {
                apply_upgrade(st, p, c);
            }
        }
        Verb::Finish => finish_harvest(st, p),
        _ => {}
    }
}

/// End the Harvest: Harvest abilities that must resolve and were not used resolve now
/// (file 000: "you must resolve Harvest abilities ... unless it states otherwise");
/// unspent mana is lost.
pub fn finish_harvest(st: &mut State, p: u8) {
    let mut work: Vec<Step> = harvest_abilities(st, p)
        .into_iter()
        .filter(|h| !h.ability.optional)
        .map(|h| step("ability", p, h.data))
        .collect();
    log(st, "finish", Some(p), format!("Player {} finishes the Harvest.", p + 1), Vec::new());
    work.push(step("harvest_end", p, Vec::new()));
    schedule(st, work);
}

/// Unspent mana is lost; the Discard phase follows.
fn step_harvest_end(st: &mut State, p: u8) {
    st.turn.mana_spent = 0;
    st.turn.mana_bonus = 0;
    schedule(st, [step("discard_start", p, Vec::new())]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paying_spirits_uses_wilds_for_missing_kinds_and_anything_for_any() {
        assert!(can_pay(&[1, 1, 0, 0], &[1, 1, 0, 0]));
        assert!(can_pay(&[0, 0, 0, 1], &[1, 0, 0, 0]));
        assert!(!can_pay(&[0, 0, 0, 1], &[1, 1, 0, 0]));
        assert!(can_pay(&[2, 0, 0, 0], &[1, 0, 0, 1]));
        assert!(!can_pay(&[1, 0, 0, 0], &[1, 0, 0, 1]));
        assert!(can_pay(&[0, 0, 0, 0], &[0, 0, 0, 0]));
    }

    #[test]
    fn spare_spirits_are_the_most_any_symbols_still_payable() {
        let mut st = midgame();
        let range = -1..=3;
        for have in [[0, 0, 0, 0], [2, 1, 0, 1], [0, 3, 1, 0], [1, 0, 0, 2], [3, 3, 3, 3]] {
            for a in range.clone() {
                for w in range.clone() {
                    st.turn.spirit_spent = [a.max(0), 1, 0, w.max(0)];
                    let spare = spare_of(&st, &have);
                    let most = (0..20).rev().find(|&n| {
                        let mut need = st.turn.spirit_spent;
                        need[3] += n;
                        can_pay(&have, &need)
                    });
                    assert_eq!(spare, most.unwrap_or(0), "have {have:?} spent {:?}", st.turn.spirit_spent);
                }
            }
        }
    }

    // The values below are the Python engine's for the fixtures' mid-game save.
    use crate::testing::midgame;

    fn options(list: &[BuyOption]) -> Vec<(String, CopyId, Option<CardId>, i64)> {
        list.iter().map(|o| (o.market.to_string(), o.copy, o.target, o.price)).collect()
    }

    #[test]
    fn buy_options_paid_and_free_are_pythons() {
        let st = midgame();
        assert_eq!(mana_available(&st), 3);
        assert_eq!(spirits_available(&st), [0, 1, 0, 0]);
        assert!(vale_options(&st).is_empty());
        let s = |m: &str| m.to_owned();
        assert_eq!(
            options(&buy_options(&st, false, None, 0)),
            vec![
                (s("1.1"), 4, None, 3),
                (s("1.3"), 30, None, 3),
                (s("soil.top"), 0, None, 2),
                (s("soil.middle"), 1, None, 2),
                (s("soil.bottom"), 2, None, 2)
            ]
        );
        // Rockspine Zenith's free buy: any cost from 2 to 4, nothing paid.
        assert_eq!(
            options(&buy_options(&st, true, Some(4), 2)),
            vec![
                (s("1.1"), 4, None, 0),
                (s("1.2"), 21, None, 0),
                (s("1.3"), 30, None, 0),
                (s("soil.top"), 0, None, 0),
                (s("soil.middle"), 1, None, 0),
                (s("soil.bottom"), 2, None, 0)
            ]
        );
    }

    #[test]
    fn every_purchase_needs_a_place_of_its_own() {
        let st = midgame();
        let p = |copy: CopyId, target: Option<CardId>| Purchase { copy, target };
        // Soil top (copy 0) fits only the blank card; soil middle (1) on three cards.
        assert!(placement_exists(&st, &[p(0, None)]));
        assert!(!placement_exists(&st, &[p(0, None), p(0, None)]));
        assert!(placement_exists(&st, &[p(1, None), p(1, None), p(1, None)]));
        assert!(!placement_exists(&st, &[p(1, None), p(1, None), p(1, None), p(1, None)]));
        assert!(!placement_exists(&st, &[p(0, Some(26))]));
        assert!(placement_exists(&st, &[p(1, Some(26)), p(1, None)]));
        assert_eq!(sleeve_layers(&st, &[99], 1), vec![99, 1]);
    }

    #[test]
    fn two_free_purchases_are_placed_as_the_full_search_places_them() {
        let st = midgame();
        let field = st.players[usize::from(st.turn.player)].field.clone();
        let n = u16::try_from(st.cat.copies.len()).unwrap();
        let (mut yes, mut no) = (0, 0);
        for a in 0..n {
            for b in (0..n).step_by(3) {
                let items = [Purchase { copy: a, target: None }, Purchase { copy: b, target: None }];
                let mut layers: Vec<(CardId, Vec<CopyId>)> =
                    field.iter().map(|&c| (c, st.cards[usize::from(c)].to_vec())).collect();
                let searched = place(&st, &items, &field, &mut layers);
                assert_eq!(placement_exists(&st, &items), searched, "copies {a} and {b}");
                if searched {
                    yes += 1;
                } else {
                    no += 1;
                }
            }
        }
        assert!(yes > 0 && no > 0, "both answers seen ({yes} placed, {no} not)");
    }

    #[test]
    fn market_words_read_as_python_reads_them() {
        let st = midgame();
        assert_eq!(market_copy(&st, "2.1"), Some(56));
        assert_eq!(market_copy(&st, "3.0"), Some(83)); // index -1: the last
        assert_eq!(market_copy(&st, "2.-2"), Some(56));
        assert_eq!(market_copy(&st, " 2 . 1 "), Some(56));
        assert_eq!(market_copy(&st, "soil.top"), Some(0));
        assert_eq!(market_copy(&st, "4.1"), None);
        assert_eq!(market_copy(&st, "1.4"), None);
        assert_eq!(market_copy(&st, "soil.left"), None);
        assert_eq!(market_copy(&st, "1.2.3"), None);
    }

    #[test]
    fn a_market_is_its_word_exactly() {
        assert_eq!(Market::Commons(2, 3).to_string(), "2.3");
        assert_eq!(Market::Soil(Slot::Middle).to_string(), "soil.middle");
        assert!(Market::Commons(2, 3).is("2.3"));
        assert!(!Market::Commons(2, 3).is("02.3"));
        assert!(!Market::Commons(2, 3).is("2.3 "));
        assert!(Market::Soil(Slot::Top).is("soil.top"));
        assert!(!Market::Soil(Slot::Top).is("soil.middle"));
        for level in 1..=3 {
            for pos in 1..=4 {
                assert_eq!(&*Market::Commons(level, pos).word(), Market::Commons(level, pos).to_string());
            }
        }
        for slot in SLOTS {
            assert_eq!(&*Market::Soil(slot).word(), Market::Soil(slot).to_string());
        }
        assert_eq!(&*crate::actions::card_word(0), "#0");
        assert_eq!(&*crate::actions::card_word(65_535), "#65535");
    }

    #[test]
    fn python_ints_in_market_words() {
        assert_eq!(py_int("3"), Some(3));
        assert_eq!(py_int(" -1 "), Some(-1));
        assert_eq!(py_int("1_0"), Some(10));
        assert_eq!(py_int("_1"), None);
        assert_eq!(py_int("x"), None);
        assert_eq!(py_int(""), None);
    }
}

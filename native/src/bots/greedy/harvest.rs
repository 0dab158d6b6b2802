//! The greedy bot's Harvest and push/pass (twin of greedy.py's `_harvest`, `_use_is_good`,
//! `_pure_gain`, `_market_copy`, `_discount`, `_best_buy`, `_best_vale`, `_push_or_pass`
//! and `_push_values`).
#![forbid(unsafe_code)]

use std::sync::Arc;

use super::cards::{CardBase, TOKEN_VP};
use super::push::{groups, Agg, Memo, Reveals};
use super::text::{discount, lower};
use super::values::{harvest_value, Adv};
use super::view;
use super::{find, Greedy};
use crate::actions::{Notation, Verb};
use crate::state::{CardId, State};

/// Harvest verbs with a rule of their own; any other verb goes to the lookahead.
const HARVEST_VERBS: [Verb; 6] = [Verb::Use, Verb::Token, Verb::Vale, Verb::Buy, Verb::Trade, Verb::Finish];

/// Words that make an ability more than a plain gain.
const COSTLY: [&str; 8] = ["discard", "lose", "pay", "remove", "return", "opponent", "each player", "instead"];

/// Python's list index (negative from the end), or `None` out of range.
fn py_index<T>(xs: &[T], i: i64) -> Option<&T> {
    let n = xs.len() as i64;
    let j = if i < 0 { n + i } else { i };
    usize::try_from(j).ok().and_then(|j| xs.get(j))
}

/// Python's `int(text)` for the engine's own numbers.
fn py_int(t: &str) -> Option<i64> {
    t.trim().parse().ok()
}

/// A card reference `#12` as its id.
pub(super) fn card_arg(a: &Notation) -> Option<CardId> {
    a.args.first().and_then(|t| t.strip_prefix('#')).and_then(|t| t.parse().ok())
}

/// One option of `_best_buy`: (price, value, the legal action or none, its market).
type BuyOpt = (i64, f64, Option<usize>, String);

impl Greedy {
    /// `_harvest`: abilities first, then vales, then advancements (the mana token only
    /// when it buys something better), then the lookahead for other actions, the spirit
    /// trade, finishing.
    pub(super) fn harvest(&mut self, st: &State, seat: u8, legal: &[Notation]) -> usize {
        let of = |v: Verb| -> Vec<usize> { (0..legal.len()).filter(|&i| legal[i].verb == v).collect() };
        // 1. Harvest abilities first: they add resources.
        for i in of(Verb::Use) {
            if self.use_is_good(st, seat, &legal[i]) {
                return i;
            }
        }
        let t = &st.turn;
        // 2. Vales with spirits (vale buys do not compete with advancement buys).
        let vales = of(Verb::Vale);
        if !vales.is_empty() {
            if let Some(b) = self.best_vale(st, legal, &vales) {
                return b;
            }
        }
        // 3. Advancements with mana, the mana token only when it buys something better.
        let buys = of(Verb::Buy);
        let tokens = of(Verb::Token);
        let left = 2 - t.adv_buys;
        let mana = crate::harvest::mana_available(st);
        if !buys.is_empty() || !tokens.is_empty() {
            let (plan_now, first) = self.best_buy(st, seat, legal, &buys, mana, left, false);
            if let Some(&tok) = tokens.first() {
                let (plan_tok, _) = self.best_buy(st, seat, legal, &buys, mana + 1, left, true);
                if plan_tok - plan_now > TOKEN_VP {
                    return tok;
                }
            }
            if let Some(f) = first {
                return f;
            }
        }
        // 4. Actions this bot has no rule for: weighed against finishing by the lookahead.
        let finish = of(Verb::Finish);
        let mut unknown: Vec<usize> = (0..legal.len()).filter(|&i| !HARVEST_VERBS.contains(&legal[i].verb)).collect();
        if !unknown.is_empty() && !self.in_lookahead && !finish.is_empty() {
            unknown.extend(&finish);
            let choice = self.lookahead(st, seat, legal, &unknown);
            if legal.get(choice).is_some_and(|a| a.verb != Verb::Finish) {
                return choice;
            }
        }
        // 5. Spare spirits for VP (yucata, german).
        if let Some(&tr) = of(Verb::Trade).first() {
            return tr;
        }
        finish.first().copied().unwrap_or(legal.len().saturating_sub(1))
    }

    /// `_use_is_good`: a plain gain is used; any other ability is tried on a determinized
    /// copy and used only if the position does not get worse.
    fn use_is_good(&mut self, st: &State, seat: u8, a: &Notation) -> bool {
        let r = a.args.first().map_or("", |s| &**s);
        if self.in_lookahead || self.pure_gain(st, seat, r) {
            return true;
        }
        let before = self.position_value(st, seat, true);
        let mut g = crate::determinize::determinize(st, Some(seat), &mut self.rng, &self.stream);
        crate::flow::apply_action(&mut g, a);
        self.position_value(&g, seat, true) >= before - 1e-9
    }

    /// `_pure_gain`: is the ability at `r` plainly a gain ("gain 1 mana for ...") with no
    /// cost or choice?
    fn pure_gain(&mut self, st: &State, seat: u8, r: &str) -> bool {
        let me = &st.players[usize::from(seat)];
        let texts: Vec<String> = if r.starts_with("vale.") {
            let Some(i) = r.split('.').nth(1).and_then(py_int) else { return false };
            let Some(&v) = py_index(&me.vales, i - 1) else { return false };
            let text = st.vale_types.get(usize::from(v)).and_then(|&t| st.cat.vales.get(usize::from(t)));
            vec![text.map_or(String::new(), |vt| vt.text.to_string())]
        } else if let Some(rest) = r.strip_prefix('#') {
            let cid = rest.split('.').next().unwrap_or("");
            let Some(&card) = me.field.iter().find(|c| c.to_string() == cid) else { return false };
            let info = self.card(st, card);
            // Ability texts read "Name: Harvest: ..."; look at the text, not the name.
            info.abilities
                .iter()
                .map(|t| t.split_once(": ").map_or(t.as_str(), |(_, x)| x).to_owned())
                .filter(|t| lower(t).starts_with("harvest"))
                .collect()
        } else {
            Vec::new()
        };
        if texts.is_empty() {
            return false;
        }
        texts.iter().map(|t| lower(t)).all(|t| t.contains("gain") && !COSTLY.iter().any(|w| t.contains(w)))
    }

    /// `_market_copy`: the advancement a market word names, if any.
    fn market_copy(st: &State, market: &str) -> Option<Adv> {
        if market.starts_with("soil.") {
            return Some(Adv::Soil(view::soil_cost(st)));
        }
        let (level, pos) = market.split_once('.')?;
        if pos.contains('.') {
            return None;
        }
        let row = match level {
            "1" => &st.commons[0],
            "2" => &st.commons[1],
            "3" => &st.commons[2],
            _ => return None,
        };
        py_index(row, py_int(pos)? - 1).copied().flatten().map(Adv::Copy)
    }

    /// `_discount`: how much less an advancement bought on card `target` costs.
    fn discount_on(&mut self, st: &State, seat: u8, target: &str) -> i64 {
        for &c in &st.players[usize::from(seat)].field {
            if format!("#{c}") == target {
                let info = self.card(st, c);
                for t in &info.abilities {
                    if let Some(n) = discount(t) {
                        return n;
                    }
                }
            }
        }
        1
    }

    /// `_best_buy`: (value of the best plan of at most `left` buys, its first buy action).
    #[allow(clippy::too_many_arguments)] // Python's parameters
    fn best_buy(
        &mut self,
        st: &State,
        seat: u8,
        legal: &[Notation],
        buys: &[usize],
        mana: i64,
        left: i64,
        allow_over: bool,
    ) -> (f64, Option<usize>) {
        let plays = self.plays(st);
        let mut opts: Vec<BuyOpt> = Vec::new();
        for &i in buys {
            let a = &legal[i];
            let market = a.args.first().map_or("", |s| &**s);
            let Some(copy) = Self::market_copy(st, market) else { continue };
            let mut price = self.adv_cost(st, copy);
            if a.args.len() == 3 {
                let target = a.args.get(2).map_or("", |s| &**s);
                price = (price - self.discount_on(st, seat, target)).max(0);
            }
            opts.push((price, self.copy_value(st, copy, plays), Some(i), market.to_owned()));
        }
        if allow_over {
            // With one more mana, offers priced one above the current mana count too: the
            // engine lists only what is affordable now, so add the commons directly.
            for (l, row) in st.commons.iter().enumerate() {
                for (i, c) in row.iter().enumerate() {
                    let m = format!("{}.{}", l + 1, i + 1);
                    let Some(c) = *c else { continue };
                    let cost = self.adv_cost(st, Adv::Copy(c));
                    if !opts.iter().any(|o| o.3 == m) && cost <= mana {
                        opts.push((cost, self.copy_value(st, Adv::Copy(c), plays), None, m));
                    }
                }
            }
        }
        let mut best = 0.0;
        let mut first: Option<usize> = None;
        for (i, (p1, v1, a1, m1)) in opts.iter().enumerate() {
            if *p1 > mana || *v1 <= 0.0 {
                continue;
            }
            if *v1 > best {
                best = *v1;
                first = *a1;
            }
            if left >= 2 {
                for (p2, v2, a2, m2) in opts.iter().skip(i + 1) {
                    if m2 == m1 && !m1.starts_with("soil.") {
                        continue;
                    }
                    if p1 + p2 <= mana && *v2 > 0.0 && v1 + v2 > best {
                        best = v1 + v2;
                        first = if v1 >= v2 { *a1 } else { *a2 };
                    }
                }
            }
        }
        (best, first)
    }

    /// `_best_vale`: the vale whose plan (its value and the best vales after it) beats
    /// buying none by more than 1e-9, the first found at a tie.
    fn best_vale(&mut self, st: &State, legal: &[Notation], actions: &[usize]) -> Option<usize> {
        let (have, spent) = Self::free_spirits(st);
        let t = &st.turn;
        let left = t.vale_limit - t.vale_buys;
        let trade = st.ruleset.spirit_trade;
        let offers = view::vale_offers(st);
        let no_vale = self.pay.vale_plan(have, spent, &[], 0, trade);
        let mut best = no_vale;
        let mut best_a = None;
        for &i in actions {
            let Some((level, pos)) = legal[i].args.first().and_then(|m| m.split_once('.')) else { continue };
            let row = match level {
                "1" => &st.vale_rows[0],
                "2" => &st.vale_rows[1],
                _ => continue,
            };
            let Some(v) = py_int(pos).and_then(|p| py_index(row, p - 1)).copied().flatten() else { continue };
            let cost = view::vale_cost(st, v);
            let spent2 = [spent[0] + cost[0], spent[1] + cost[1], spent[2] + cost[2], spent[3] + cost[3]];
            let val = view::vale_value(st, v) + self.pay.vale_plan(have, spent2, &offers, (left - 1).max(0), trade);
            if val > best + 1e-9 {
                best = val;
                best_a = Some(i);
            }
        }
        best_a
    }

    /// `_push_or_pass`: push when its expected value beats harvesting now.
    pub(super) fn push_or_pass(&mut self, st: &State, seat: u8, legal: &[Notation]) -> usize {
        let last = |v: Verb| (0..legal.len()).rev().find(|&i| legal[i].verb == v);
        let pass = last(Verb::Pass).unwrap_or(0);
        let Some(push) = last(Verb::Push) else { return pass };
        let (now, go) = self.push_values(st, seat);
        if go > now {
            push
        } else {
            pass
        }
    }

    /// (cards the next reveal is drawn from uniformly, cards known to come first in order)
    /// (`_next_cards`).
    pub(super) fn next_cards(&mut self, st: &State, seat: u8) -> (Vec<Arc<CardBase>>, Vec<Arc<CardBase>>) {
        let me = &st.players[usize::from(seat)];
        if me.deck.is_empty() {
            // An empty deck is refilled by shuffling the discard pile (file 000).
            return (self.cards_of(st, &view::sorted(&me.discard)), Vec::new());
        }
        let deck = view::sorted(&me.deck);
        if me.known_top.is_empty() {
            return (self.cards_of(st, &deck), Vec::new());
        }
        let known_ids: Vec<CardId> = me.known_top.iter().rev().copied().filter(|i| deck.contains(i)).collect();
        let known = self.cards_of(st, &known_ids);
        let pool_ids: Vec<CardId> = deck.into_iter().filter(|c| !known_ids.contains(c)).collect();
        (self.cards_of(st, &pool_ids), known)
    }

    /// `_push_values`: (value of harvesting the field as it is, expected value of
    /// pushing).
    pub(super) fn push_values(&mut self, st: &State, seat: u8) -> (f64, f64) {
        let me = &st.players[usize::from(seat)];
        let field = self.cards_of(st, &me.field);
        let on_deck = me.on_deck.map(|c| self.card(st, c));
        let (pool, known) = self.next_cards(st, seat);
        let table = self.buy_table(st, 2);
        let vales = view::vale_offers(st);
        let trade = st.ruleset.spirit_trade;
        let guard = field.iter().any(|c| c.guard);
        let decay = crate::zones::net_decay(st, seat);
        let agg = Agg::of(field.iter().map(|c| &**c));
        let pay = &mut self.pay;
        let mut hv = Memo::new(|a| harvest_value(&table, &vales, trade, pay, a));
        let now = super::push::Harvest::hv(&mut hv, agg);
        let g = groups(&pool);
        let start = on_deck.map_or(agg, |c| agg.with(&c));
        let mut r = Reveals { pool: &pool, guard, hv: &mut hv };
        let go = r.push_rec(start, decay, &g, pool.len(), &known, self.depth);
        (now, go)
    }
}

/// `_fallback`: inside a lookahead, a decision without a rule: prefer declining (skip /
/// keep / finish / pass / spoil), else the first listed answer. Never random.
pub(super) fn fallback(legal: &[Notation], cands: &[usize]) -> usize {
    for v in [Verb::Skip, Verb::Keep, Verb::Finish, Verb::Pass, Verb::Spoil] {
        if let Some(i) = find(legal, cands, v) {
            return i;
        }
    }
    cands.first().copied().unwrap_or(0)
}

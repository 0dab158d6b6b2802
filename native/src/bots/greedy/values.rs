//! The greedy bot's values (twin of greedy.py's `copy_value`, `card_value`,
//! `position_value`, `opponent_value`, `harvest_plan_value`, `field_value`,
//! `bought_value`, `buy_table` and the harvest value of a field).
#![forbid(unsafe_code)]

use std::sync::Arc;

use super::cards::{CardBase, CopyInfo, CURSE_VP, GROWTH_VP, TOKEN_VP};
use super::plans::{buy_table, Offer, Payments, TOP};
use super::push::Agg;
use super::view::{self, rounds_left};
use super::{CopyEntry, Greedy};
use crate::state::{CardId, CopyId, State};

/// An advancement as the bot values it: a copy of the catalogue, or its Fertile Soil
/// stand-in at a cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Adv {
    /// A copy (in the commons, bought).
    Copy(CopyId),
    /// Fertile Soil at this cost.
    Soil(i64),
}

/// The value of harvesting with a field of aggregate `ag` (Python's `hv`): the best buys
/// for its mana, its VP and curses, and the best vale plan of two buys for its spirits.
pub fn harvest_value(table: &[f64; TOP], vales: &[Offer], trade: bool, pay: &mut Payments, ag: Agg) -> f64 {
    let [a, f, s, w, vp, curse] = ag.n;
    let m = (ag.mana as i64).clamp(0, TOP as i64 - 1);
    let plan = pay.field_plan([a, f, s, w], vales, trade);
    table.get(usize::try_from(m).unwrap_or(0)).copied().unwrap_or(0.0) + vp as f64 + CURSE_VP * curse as f64 + plan
}

impl Greedy {
    /// The cached entry of a copy.
    fn copy_entry(&mut self, st: &State, copy: CopyId) -> Option<&CopyEntry> {
        let i = usize::from(copy);
        let w = self.w;
        let slot = self.copies.get_mut(i)?;
        if slot.is_none() {
            let info = CopyInfo::of(&st.cat, copy);
            let parts = w.copy_parts(&info);
            let extra = w.ability_extra(&info);
            let gives_mana = super::cards::copy_gives_mana(&info);
            *slot = Some(CopyEntry { info, parts, extra, gives_mana });
        }
        slot.as_ref()
    }

    /// (value per play, end VP, negative VP, ability's end VP) of an advancement.
    pub(super) fn adv_parts(&mut self, st: &State, a: Adv) -> (f64, i64, i64, f64) {
        match a {
            Adv::Copy(c) => self.copy_entry(st, c).map_or((0.0, 0, 0, 0.0), |e| e.parts),
            Adv::Soil(cost) => self.w.copy_parts(&CopyInfo::soil(cost)),
        }
    }

    /// The cost of an advancement.
    pub(super) fn adv_cost(&mut self, st: &State, a: Adv) -> i64 {
        match a {
            Adv::Copy(c) => self.copy_entry(st, c).map_or(0, |e| e.info.cost),
            Adv::Soil(cost) => cost,
        }
    }

    /// How often a newly bought advancement is still expected to be played (`_plays`).
    pub(super) fn plays(&self, st: &State) -> f64 {
        let x = rounds_left(st) - 1.0;
        (if x > 0.0 { x } else { 0.0 }) * self.w.play_rate
    }

    /// `_copy_value`: the value of owning an advancement for the rest of the game.
    pub(super) fn copy_value(&mut self, st: &State, a: Adv, plays: f64) -> f64 {
        let (play, end_vp, neg_vp, end_extra) = self.adv_parts(st, a);
        plays * play + end_vp as f64 - neg_vp as f64 + end_extra
    }

    /// The info of a card as every seat sees it, cached by make-up.
    pub(crate) fn card(&mut self, st: &State, card: CardId) -> Arc<CardBase> {
        let Some(layers) = st.cards.get(usize::from(card)) else { return Arc::new(CardBase::default()) };
        if let Some(c) = self.cards.get(layers) {
            return c.clone();
        }
        let c = Arc::new(CardBase::of(st, card));
        if self.cards.len() >= 50000 {
            self.cards.clear();
        }
        self.cards.insert(layers.clone(), c.clone());
        c
    }

    /// The infos of cards, in order.
    pub(super) fn cards_of(&mut self, st: &State, cards: &[CardId]) -> Vec<Arc<CardBase>> {
        cards.iter().map(|&c| self.card(st, c)).collect()
    }

    /// (value per play, end VP) of the abilities of a card's advancements (`_card_extra`),
    /// from the copies seen in the commons (mana abilities are counted as mana already).
    pub(crate) fn card_extra(&mut self, st: &State, c: &CardBase) -> (f64, f64) {
        let (mut pe, mut ee) = (0.0, 0.0);
        {
            for &(copy, _) in &c.layers {
                // `label in covered`: any layer of this copy covered.
                let covered = c.layers.iter().any(|&(x, cov)| x == copy && cov);
                if !self.seen.get(usize::from(copy)).copied().unwrap_or(false) || covered {
                    continue;
                }
                let Some(e) = self.copy_entry(st, copy) else { continue };
                if e.gives_mana {
                    continue;
                }
                let (p, x) = e.extra;
                pe += p;
                ee += x;
            }
        }
        (pe, ee)
    }

    /// (value per play, end VP, ability end VP) of a card (`_card_parts`).
    fn card_parts(&mut self, st: &State, c: &CardBase) -> (f64, i64, f64) {
        let (pe, ee) = if c.layers.is_empty() { (0.0, 0.0) } else { self.card_extra(st, c) };
        let per_play = c.play + pe - self.w.decay_vp * c.nd.max(0) as f64 + GROWTH_VP * (-c.nd).max(0) as f64;
        (per_play, c.end, ee)
    }

    /// `card_value`: the value of owning one card (its future plays and end VP).
    pub(super) fn card_value(&mut self, st: &State, c: &CardBase, rounds: f64) -> f64 {
        let plays = rounds * self.w.play_rate;
        let (per_play, end, extra_end) = self.card_parts(st, c);
        plays * per_play + end as f64 + extra_end
    }

    /// The sum of the card values of seat `p`'s owned list as `viewer` sees it.
    fn owned_value(&mut self, st: &State, p: u8, viewer: u8, rounds: f64) -> f64 {
        let mut s = 0.0;
        for (c, hidden) in view::owned(st, p, viewer) {
            let info = if hidden { Arc::new(CardBase::default()) } else { self.card(st, c) };
            s += self.card_value(st, &info, rounds);
        }
        s
    }

    /// The vales' values of a seat, summed.
    fn vales_value(st: &State, p: u8) -> f64 {
        let mut s = 0.0;
        for &v in &st.players[usize::from(p)].vales {
            s += view::vale_value(st, v);
        }
        s
    }

    /// `position_value`: a seat's position in VP, less (when `relative`) the strongest
    /// opponent's.
    pub(crate) fn position_value(&mut self, st: &State, seat: u8, relative: bool) -> f64 {
        let rounds = rounds_left(st);
        let me = &st.players[usize::from(seat)];
        let mut v = (me.vp_tokens - me.curse_tokens) as f64;
        v += Self::vales_value(st, seat);
        v += self.owned_value(st, seat, seat, rounds);
        if me.mana_token_active {
            v += TOKEN_VP;
        }
        let on_move = st.turn.player == seat;
        let phase = crate::game::phase(st);
        if on_move && phase == "harvest" {
            v += self.harvest_plan_value(st);
        }
        if on_move && phase == "planting" {
            // The harvest the field would give if the seat passed now.
            v += self.field_value(st, seat);
        }
        if on_move {
            v += self.bought_value(st);
        }
        if !relative {
            return v;
        }
        if st.over {
            let sc: Vec<i64> = (0..st.players.len()).map(|p| crate::scoring::breakdown(st, p as u8).total).collect();
            let best_other = sc.iter().enumerate().filter(|&(i, _)| i != usize::from(seat)).map(|(_, &t)| t).max();
            if let (Some(b), Some(&mine)) = (best_other, sc.get(usize::from(seat))) {
                return 100.0 * (mine - b) as f64;
            }
        }
        let mut best: Option<f64> = None;
        for p in 0..st.players.len() as u8 {
            if p != seat {
                let o = self.opponent_value(st, p, seat, rounds);
                if best.is_none_or(|b| o > b) {
                    best = Some(o);
                }
            }
        }
        v - best.unwrap_or(0.0)
    }

    /// `opponent_value`: another seat's points in hand and what its (public) cards earn.
    fn opponent_value(&mut self, st: &State, p: u8, viewer: u8, rounds: f64) -> f64 {
        let pl = &st.players[usize::from(p)];
        let mut v = (pl.vp_tokens - pl.curse_tokens) as f64 + Self::vales_value(st, p);
        v += self.owned_value(st, p, viewer, rounds);
        if pl.mana_token_active {
            v += TOKEN_VP;
        }
        v
    }

    /// The free spirits of the Harvest: (have, spent).
    pub(super) fn free_spirits(st: &State) -> ([i64; 4], [i64; 4]) {
        (crate::harvest::spirits_available(st), st.turn.spirit_spent)
    }

    /// `harvest_plan_value`: in the Harvest, the best advancement buys the mana and buys
    /// left allow, and the best vales the free spirits pay for.
    pub(crate) fn harvest_plan_value(&mut self, st: &State) -> f64 {
        let t = &st.turn;
        let table = self.buy_table(st, 2 - t.adv_buys);
        let mana = crate::harvest::mana_available(st).clamp(0, 40);
        let (have, spent) = Self::free_spirits(st);
        let vales = view::vale_offers(st);
        let trade = st.ruleset.spirit_trade;
        let buys = (t.vale_limit - t.vale_buys).max(0);
        table[usize::try_from(mana).unwrap_or(0)] + self.pay.vale_plan(have, spent, &vales, buys, trade)
    }

    /// `field_value`: the harvest the seat's field gives as it stands.
    pub(crate) fn field_value(&mut self, st: &State, seat: u8) -> f64 {
        let field = self.cards_of(st, &st.players[usize::from(seat)].field);
        let table = self.buy_table(st, 2);
        let vales = view::vale_offers(st);
        harvest_value(&table, &vales, st.ruleset.spirit_trade, &mut self.pay, Agg::of(field.iter().map(|c| &**c)))
    }

    /// `bought_value`: the advancements bought this turn by the seat on move.
    pub(crate) fn bought_value(&mut self, st: &State) -> f64 {
        let plays = self.plays(st);
        let mut v = 0.0;
        for pu in &st.turn.purchases {
            if self.seen.get(usize::from(pu.copy)).copied().unwrap_or(false) {
                v += self.copy_value(st, Adv::Copy(pu.copy), plays);
            }
        }
        v
    }

    /// `buy_table`: best[m], the value of the best advancement buys (at most `buys`) with
    /// m mana (cached by what it depends on: the offers, Fertile Soil, the round estimate).
    pub(super) fn buy_table(&mut self, st: &State, buys: i64) -> [f64; TOP] {
        let soil = st.soil_left.iter().any(|&n| n != 0);
        let soil_cost = view::soil_cost(st);
        let key = (st.commons, soil, soil_cost, rounds_left(st).to_bits(), buys);
        if let Some(t) = self.tables.get(&key) {
            return *t;
        }
        let plays = self.plays(st);
        let mut opts: Vec<(i64, f64)> = Vec::new();
        for &c in st.commons.iter().flatten().flatten() {
            let cost = self.adv_cost(st, Adv::Copy(c));
            opts.push((cost, self.copy_value(st, Adv::Copy(c), plays)));
        }
        if soil {
            let sv = self.copy_value(st, Adv::Soil(soil_cost), plays);
            opts.push((soil_cost, sv));
            opts.push((soil_cost, sv));
        }
        opts.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        let t = buy_table(&opts, buys.max(0));
        if self.tables.len() >= 4096 {
            self.tables.clear();
        }
        self.tables.insert(key, t);
        t
    }
}

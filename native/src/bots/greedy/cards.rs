//! What the greedy bot knows of cards and advancements (twin of greedy.py's `CardInfo`,
//! `_copy_parts`, `_ability_extra` and `_card_extra`), read from the card's stats as its
//! card view shows them (the observation's `mana`, `spirits`, `abilities` ...).
#![forbid(unsafe_code)]

use crate::card_types::{Slot, Symbol, SLOTS};
use crate::catalogue::Catalogue;
use crate::state::{CardId, CopyId, State};
use crate::zones::card_stats;

use super::text::{ability_mana, lower, mana_ability};

// Values are in final victory points (VP); see greedy.py for why.
/// A mana at harvest time.
pub const MANA_VP: f64 = 0.5;
/// A spirit.
pub const SPIRIT_VP: f64 = 1.35;
/// A wild spirit.
pub const WILD_VP: f64 = 1.6;
/// A VP symbol.
pub const VP_SYMBOL_VP: f64 = 1.0;
/// A guardian.
pub const GUARDIAN_VP: f64 = 0.05;
/// A curse.
pub const CURSE_VP: f64 = -1.0;
/// What one decay showing on a card costs per play.
pub const DECAY_VP: f64 = 0.45;
/// What a growth saves.
pub const GROWTH_VP: f64 = 0.35;
/// Harvest value of an active mana token kept for later.
pub const TOKEN_VP: f64 = 0.4;
/// Plays per round of one card.
pub const PLAY_RATE: f64 = 0.3;

/// cards/cost_model.py's weights (`SYMBOL_WEIGHTS`, in `SYMBOLS` order, and the end VP's).
const VP_WEIGHT: f64 = 1.0 / 1.5;
const SYMBOL_WEIGHTS: [f64; 10] = [1.0, 0.5, -1.5, VP_WEIGHT, 1.0, 1.0, 1.0, 1.5, 0.25, -1.0];
const END_VP_WEIGHT: f64 = VP_WEIGHT / 2.0;
const NEG_VP_WEIGHT: f64 = -END_VP_WEIGHT;

/// cost_model.py's `advancement_value`: the model's value of an advancement, in mana per
/// play (its symbols summed in `SYMBOLS` order, the zero ones left out as the copy view
/// leaves them out).
fn advancement_value(symbols: &[i64; 10], end_vp: i64, neg_vp: i64) -> f64 {
    let mut v = 0.0;
    for (w, &n) in SYMBOL_WEIGHTS.iter().zip(symbols) {
        if n != 0 {
            v += w * n as f64;
        }
    }
    v + END_VP_WEIGHT * end_vp as f64 + NEG_VP_WEIGHT * neg_vp as f64 + 0.0
}

/// What the bot cares about in one card of a field, deck or owned list (Python's
/// `CardInfo`, without the id; shared by the cards of the same make-up).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CardBase {
    /// Mana, with the harvest mana its abilities give.
    pub mana: f64,
    /// Animal, forest, sky, wild.
    pub spirits: [i64; 4],
    /// VP symbols.
    pub vp: i64,
    /// Net decay it shows.
    pub nd: i64,
    /// Curse symbols.
    pub curse: i64,
    /// Guardian symbols.
    pub guardian: i64,
    /// Value of having it in the field during a harvest (decay aside).
    pub play: f64,
    /// End VP less negative VP.
    pub end: i64,
    /// Has it an ability that acts when the turn would spoil (Peacekeeper Druid)?
    pub guard: bool,
    /// Each layer's copy, and whether a later layer covers it (the view's `advancements`
    /// and `covered`).
    pub layers: Vec<(CopyId, bool)>,
    /// Decay and growth symbols (for sleeving).
    pub decay: i64,
    /// Growth symbols.
    pub growth: i64,
    /// Mana symbols (the view's `mana`).
    pub mana_symbols: i64,
    /// Free slots.
    pub free_slots: usize,
    /// Its ability texts as the view lists them (`"Name: text"`).
    pub abilities: Vec<String>,
}

impl CardBase {
    /// The info of a card as every seat sees it.
    pub fn of(st: &State, card: CardId) -> CardBase {
        let s = card_stats(st, card);
        let cat = &st.cat;
        let layers: &[CopyId] = st.cards.get(usize::from(card)).map_or(&[], |l| &l[..]);
        let active = |i: usize| s.active_layers.iter().any(|&a| usize::from(a) == i);
        let abilities: Vec<String> = s
            .abilities
            .iter()
            .map(|r| {
                let t = cat.copy_type(r.copy);
                let ab = r.ability(cat);
                let text = if ab.text.is_empty() { &t.text } else { &ab.text };
                format!("{}: {text}", t.name)
            })
            .collect();
        let slot_filled = |sl: Slot| {
            s.active_layers
                .iter()
                .any(|&i| layers.get(usize::from(i)).is_some_and(|&c| cat.copies[usize::from(c)].slots.contains(sl)))
        };
        let free_slots = SLOTS.iter().filter(|&&sl| !slot_filled(sl)).count();
        let sym = |k: Symbol| s.get(k);
        let spirits = [sym(Symbol::Animal), sym(Symbol::Forest), sym(Symbol::Sky), sym(Symbol::Wild)];
        let mana = sym(Symbol::Mana) as f64 + ability_mana(&abilities);
        let (vp, curse, guardian) = (sym(Symbol::Vp), sym(Symbol::Curse), sym(Symbol::Guardian));
        let [a, f, sk, w] = spirits;
        let play = MANA_VP * mana
            + SPIRIT_VP * (a + f + sk) as f64
            + WILD_VP * w as f64
            + VP_SYMBOL_VP * vp as f64
            + CURSE_VP * curse as f64
            + GUARDIAN_VP * guardian as f64;
        let guard = abilities.iter().any(|t| {
            let l = lower(t);
            l.contains("instead of spoiling") || l.contains("would spoil")
        });
        CardBase {
            mana,
            spirits,
            vp,
            nd: sym(Symbol::Decay) - sym(Symbol::Growth),
            curse,
            guardian,
            play,
            end: s.end_vp - s.neg_vp,
            guard,
            layers: layers.iter().enumerate().map(|(i, &c)| (c, !active(i))).collect(),
            decay: sym(Symbol::Decay),
            growth: sym(Symbol::Growth),
            mana_symbols: sym(Symbol::Mana),
            free_slots,
            abilities,
        }
    }

    /// The outcome key of push/pass (Python's `CardInfo.k`): cards with equal keys are one
    /// outcome of the spoil expectation.
    pub fn same_outcome(&self, o: &CardBase) -> bool {
        self.mana == o.mana && self.spirits == o.spirits && self.vp == o.vp && self.nd == o.nd && self.curse == o.curse
    }

    /// Python's `_draw_value`: a card's worth as a draw.
    pub fn draw_value(&self) -> f64 {
        self.play - DECAY_VP * 2.0 * self.nd.max(0) as f64 + GROWTH_VP * (-self.nd).max(0) as f64
    }
}

/// What an advancement copy view tells the bot (Python's copy view fields it reads).
#[derive(Clone, Debug, PartialEq)]
pub struct CopyInfo {
    /// Its symbols, in `SYMBOLS` order.
    pub symbols: [i64; 10],
    /// Its cost.
    pub cost: i64,
    /// End VP.
    pub end_vp: i64,
    /// Negative VP.
    pub neg_vp: i64,
    /// Its printed text.
    pub text: String,
    /// The bot's stand-in of Fertile Soil (`"kind": "fertile_soil"`).
    pub soil: bool,
}

impl CopyInfo {
    /// The copy view of `copy`.
    pub fn of(cat: &Catalogue, copy: CopyId) -> CopyInfo {
        let t = cat.copy_type(copy);
        CopyInfo {
            symbols: t.symbols,
            cost: t.cost,
            end_vp: t.end_vp,
            neg_vp: t.neg_vp,
            text: t.text.to_string(),
            soil: false,
        }
    }

    /// The bot's stand-in copy view of Fertile Soil (Python's `_soil`).
    pub fn soil(cost: i64) -> CopyInfo {
        let mut symbols = [0; 10];
        symbols[Symbol::Mana as usize] = 1;
        CopyInfo { symbols, cost, end_vp: 0, neg_vp: 0, text: String::new(), soil: true }
    }

    /// One symbol.
    pub fn sym(&self, s: Symbol) -> i64 {
        self.symbols[s as usize]
    }
}

/// The bot's weights of the value estimate of advancements.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// A mana symbol.
    pub mana_vp: f64,
    /// A spirit symbol.
    pub spirit_vp: f64,
    /// A decay symbol (its cost).
    pub decay_vp: f64,
    /// Plays per round.
    pub play_rate: f64,
}

impl Weights {
    /// (value per play, end-of-game VP) of an advancement's ability: what its cost says it
    /// is worth beyond its printed symbols (Python's `_ability_extra`).
    pub fn ability_extra(&self, copy: &CopyInfo) -> (f64, f64) {
        let text = &copy.text;
        if text.is_empty() || copy.soil || text.contains("Always available") {
            return (0.0, 0.0);
        }
        let printed = advancement_value(&copy.symbols, copy.end_vp, copy.neg_vp);
        let x = copy.cost as f64 / 2.0 - printed;
        let extra = if x > 0.0 { x } else { 0.0 };
        let low = lower(text);
        if low.contains("end of game") || low.contains("end of the game") {
            return (0.0, extra * 1.2);
        }
        (extra * self.mana_vp * 1.6, 0.0)
    }

    /// (value per play, end VP, negative VP, ability's end VP) of an advancement (Python's
    /// `_copy_parts`).
    pub fn copy_parts(&self, copy: &CopyInfo) -> (f64, i64, i64, f64) {
        let s = |k| copy.sym(k) as f64;
        let wild = self.spirit_vp * WILD_VP / SPIRIT_VP;
        let mut play = self.mana_vp * s(Symbol::Mana)
            + self.spirit_vp * (copy.sym(Symbol::Animal) + copy.sym(Symbol::Forest) + copy.sym(Symbol::Sky)) as f64
            + wild * s(Symbol::Wild)
            + VP_SYMBOL_VP * s(Symbol::Vp)
            + CURSE_VP * s(Symbol::Curse)
            + GUARDIAN_VP * s(Symbol::Guardian)
            - self.decay_vp * s(Symbol::Decay)
            + GROWTH_VP * s(Symbol::Growth);
        let (play_extra, end_extra) = self.ability_extra(copy);
        play += play_extra;
        (play, copy.end_vp, copy.neg_vp, end_extra)
    }
}

/// Does a copy's text gain mana for each of something (its ability already counted as
/// mana by [`CardBase`])?
pub fn copy_gives_mana(copy: &CopyInfo) -> bool {
    mana_ability(&copy.text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_soil_stand_in_is_worth_its_mana() {
        let w = Weights { mana_vp: MANA_VP, spirit_vp: SPIRIT_VP, decay_vp: DECAY_VP, play_rate: PLAY_RATE };
        let soil = CopyInfo::soil(2);
        assert_eq!(w.ability_extra(&soil), (0.0, 0.0));
        assert_eq!(w.copy_parts(&soil), (0.5, 0, 0, 0.0));
    }

    #[test]
    fn an_ability_is_worth_what_its_cost_says_beyond_its_symbols() {
        let w = Weights { mana_vp: MANA_VP, spirit_vp: SPIRIT_VP, decay_vp: DECAY_VP, play_rate: PLAY_RATE };
        let mut symbols = [0; 10];
        symbols[Symbol::Mana as usize] = 1;
        let c = CopyInfo { symbols, cost: 5, end_vp: 0, neg_vp: 0, text: "Do a thing.".into(), soil: false };
        // 5 / 2 - 1 = 1.5 mana per play beyond the symbols, at 0.5 VP a mana, times 1.6.
        assert_eq!(w.ability_extra(&c), (1.5 * 0.5 * 1.6, 0.0));
        let end = CopyInfo { text: "At the End of Game: 1 VP.".into(), ..c.clone() };
        assert_eq!(w.ability_extra(&end), (0.0, 1.5 * 1.2));
        let always = CopyInfo { text: "Always available.".into(), ..c };
        assert_eq!(w.ability_extra(&always), (0.0, 0.0));
    }
}

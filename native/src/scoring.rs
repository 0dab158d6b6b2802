//! Twin of mysticvale/engine/scoring.py: final scoring and winners (file 000, End of the
//! Game; file 003, Example Final Scoring).
#![forbid(unsafe_code)]

use crate::card_types::{Effect, Symbol, Trigger};
use crate::state::{CardId, State};
use crate::zones::{owned_cards, stats};

/// Symbols that Gaia's Chosen counts: every symbol on the left side but guardian and curse.
const GAIA_SYMBOLS: [Symbol; 8] = [
    Symbol::Mana,
    Symbol::Growth,
    Symbol::Decay,
    Symbol::Vp,
    Symbol::Animal,
    Symbol::Forest,
    Symbol::Sky,
    Symbol::Wild,
];

/// A player's score by source (Python's `breakdown`; `total` is the sum of the first five).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Breakdown {
    /// VP tokens.
    pub vp_tokens: i64,
    /// Gray VP of owned cards, with end-game abilities.
    pub advancements: i64,
    /// Gray VP of vales.
    pub vales: i64,
    /// Red VP of cards and vales (a negative number).
    pub negative_vp: i64,
    /// Curse tokens (a negative number).
    pub curse_tokens: i64,
    /// The score.
    pub total: i64,
    /// Level-3 advancements plus level-2 vales, which break a tie.
    pub tiebreak: i64,
}

/// (gray VP including end-game abilities, red negative VP) of one card (`card_end_vp`).
pub fn card_end_vp(st: &State, card: CardId, p: u8) -> (i64, i64) {
    let s = stats(st, card);
    let mut vp = s.end_vp;
    for r in &s.abilities {
        let ab = r.ability(&st.cat);
        if ab.trigger != Trigger::EndGame {
            continue;
        }
        match &ab.effect {
            Effect::VpPerPrintedSymbol {} => vp += GAIA_SYMBOLS.iter().map(|&g| s.printed[g as usize]).sum::<i64>(),
            // The catalogue loader requires the symbol (Python fails without it too).
            Effect::VpPerSymbolInDeck { symbol: Some(sym), per } => {
                let n: i64 = owned_cards(st, p).into_iter().map(|c| stats(st, c).printed[*sym as usize]).sum();
                vp += n * per.unwrap_or(1);
            }
            _ => {}
        }
    }
    (vp, s.neg_vp)
}

/// A player's score by source.
pub fn breakdown(st: &State, p: u8) -> Breakdown {
    let pl = &st.players[usize::from(p)];
    let (mut adv_vp, mut adv_neg, mut level3) = (0, 0, 0);
    for c in owned_cards(st, p) {
        let (vp, neg) = card_end_vp(st, c, p);
        adv_vp += vp;
        adv_neg += neg;
        level3 += stats(st, c).level3;
    }
    let (mut vale_vp, mut vale_neg, mut level2_vales) = (0, 0, 0);
    for &v in &pl.vales {
        let vt = &st.cat.vales[usize::from(st.vale_types[usize::from(v)])];
        vale_vp += vt.end_vp;
        vale_neg += vt.neg_vp;
        level2_vales += i64::from(vt.level == 2);
    }
    let negative_vp = -(adv_neg + vale_neg);
    let curse_tokens = -pl.curse_tokens;
    Breakdown {
        vp_tokens: pl.vp_tokens,
        advancements: adv_vp,
        vales: vale_vp,
        negative_vp,
        curse_tokens,
        total: pl.vp_tokens + adv_vp + vale_vp + negative_vp + curse_tokens,
        tiebreak: level3 + level2_vales,
    }
}

/// Every player's total.
pub fn scores(st: &State) -> Vec<i64> {
    (0..st.players.len()).map(|p| breakdown(st, p as u8).total).collect()
}

/// Most points; ties broken by level-3 advancements plus level-2 vales; then shared (or
/// the players an ability made win, Le Que).
pub fn winners(st: &State) -> Vec<u8> {
    if let Some(w) = &st.winner_override {
        return w.clone();
    }
    let b: Vec<(i64, i64)> =
        (0..st.players.len()).map(|p| breakdown(st, p as u8)).map(|x| (x.total, x.tiebreak)).collect();
    let Some(best) = b.iter().copied().max() else {
        return Vec::new();
    };
    (0u8..).zip(&b).filter(|(_, x)| **x == best).map(|(p, _)| p).collect()
}

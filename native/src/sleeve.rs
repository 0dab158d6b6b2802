//! Twin of mysticvale/engine/sleeve.py: what the rules see of one card (a sleeve: a
//! starting card plus the advancements sleeved on it, in sleeving order).
//!
//! A card is its layers, advancement-copy ids in the order they were sleeved (the printed
//! starting advancement, such as Cursed Land, first). Its symbols after Ongoing abilities,
//! its active abilities and where an advancement may still go are derived here.
#![forbid(unsafe_code)]

use crate::card_types::{Ability, Effect, Kind, Symbol, Trigger};
use crate::catalogue::Catalogue;

/// One active ability of a card: the layer it is on, and which ability of that layer's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AbilityRef {
    /// The layer's position in the card's layers.
    pub layer: u8,
    /// The layer's copy.
    pub copy: u16,
    /// The ability's index among its type's abilities.
    pub index: u8,
}

impl AbilityRef {
    /// The ability itself.
    pub fn ability<'c>(&self, cat: &'c Catalogue) -> &'c Ability {
        &cat.copy_type(self.copy).abilities[usize::from(self.index)]
    }
}

/// What the rules see of one card (Python's `SleeveStats`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SleeveStats {
    /// Effective symbols (Ongoing abilities applied), in `SYMBOLS` order.
    pub symbols: [i64; 10],
    /// Symbols of the active layers, ignoring text effects.
    pub printed: [i64; 10],
    /// Decay left if Aether Tree cancels all non-Cursed-Land decay.
    pub aether_decay: i64,
    /// The active abilities, in layer order then printed order.
    pub abilities: Vec<AbilityRef>,
    /// Positions of the layers no later layer covers.
    pub active_layers: Vec<u8>,
    /// Is a Cursed Land among the active layers?
    pub has_cursed_land: bool,
    /// Active level-3 advancements on the card.
    pub level3: i64,
    /// Gray VP of the active layers.
    pub end_vp: i64,
    /// Red negative VP of the active layers.
    pub neg_vp: i64,
    /// Decay minus growth: what the card adds to the decay count.
    pub net: i64,
    /// The same with Aether Tree cancelling (`aether_decay - growth`).
    pub aether_net: i64,
}

impl SleeveStats {
    /// One effective symbol.
    pub fn get(&self, s: Symbol) -> i64 {
        self.symbols[s as usize]
    }

    /// The active abilities of one trigger as `(layer, k, ability)`, `k` numbering the
    /// abilities of one layer among all its active abilities (Python's `by_trigger[trigger]`).
    pub fn by_trigger<'a>(
        &'a self,
        cat: &'a Catalogue,
        trigger: Trigger,
    ) -> impl Iterator<Item = (u8, u8, AbilityRef)> + 'a {
        let mut last_layer = None;
        let mut k = 0u8;
        self.abilities.iter().filter_map(move |r| {
            if last_layer == Some(r.layer) {
                k += 1;
            } else {
                last_layer = Some(r.layer);
                k = 0;
            }
            (r.ability(cat).trigger == trigger).then_some((r.layer, k, *r))
        })
    }

    /// Does the card have an active ability of this trigger?
    pub fn has_trigger(&self, cat: &Catalogue, trigger: Trigger) -> bool {
        self.abilities.iter().any(|r| r.ability(cat).trigger == trigger)
    }
}

/// Derive a card's stats from its layers (Python's `compute_stats`).
///
/// # Panics
/// If a layer is not a copy of `cat` (the state only ever holds its catalogue's copies).
pub fn compute_stats(cat: &Catalogue, layers: &[u16]) -> SleeveStats {
    let mut active = Vec::with_capacity(layers.len());
    let mut abilities = Vec::new();
    let mut printed = [0i64; 10];
    let mut cursed_decay = 0;
    let mut has_cursed = false;
    let (mut level3, mut end_vp, mut neg_vp) = (0, 0, 0);
    for (pos, &copy) in layers.iter().enumerate() {
        let later = &layers[pos + 1..];
        let slots = cat.copies[usize::from(copy)].slots;
        if later.iter().any(|&o| cat.copies[usize::from(o)].slots.overlaps(slots)) {
            continue; // covered (only an eclipse advancement can be): no symbols, no ability
        }
        // Cards hold few layers; a position past 255 would be a corrupt card.
        let pos8 = u8::try_from(pos).expect("invariant: a card has fewer than 256 layers");
        active.push(pos8);
        let t = cat.copy_type(copy);
        for (k, v) in t.symbols.iter().enumerate() {
            printed[k] += v;
        }
        if t.kind == Kind::Starting && &*t.name == "Cursed Land" {
            has_cursed = true;
            cursed_decay += t.symbol(Symbol::Decay);
        }
        if t.level == 3 {
            level3 += 1;
        }
        end_vp += t.end_vp;
        neg_vp += t.neg_vp;
        // A long-wise ability covered by a later long-wise advancement is ignored.
        let longwise_covered = t.longwise && later.iter().any(|&o| cat.copy_type(o).longwise);
        if !longwise_covered {
            for index in 0..t.abilities.len() {
                let index = u8::try_from(index).expect("invariant: a card type has fewer than 256 abilities");
                abilities.push(AbilityRef { layer: pos8, copy, index });
            }
        }
    }
    let mut symbols = printed;
    let other_decay = printed[Symbol::Decay as usize] - cursed_decay;
    let mut no_decay = false;
    let mut max_decay: Option<i64> = None;
    for r in &abilities {
        let ab = r.ability(cat);
        if ab.trigger != Trigger::Ongoing {
            continue;
        }
        match &ab.effect {
            Effect::ManaPerGuardian { per } => {
                symbols[Symbol::Mana as usize] += per.unwrap_or(1) * printed[Symbol::Guardian as usize];
            }
            Effect::ManaPerSymbol { symbol, per } => {
                symbols[Symbol::Mana as usize] += per.unwrap_or(1) * printed[symbol.unwrap_or(Symbol::Mana) as usize];
            }
            Effect::NoDecay {} => no_decay = true,
            Effect::MaxDecay { max } => {
                let cap = max.unwrap_or(1);
                max_decay = Some(max_decay.map_or(cap, |m| m.min(cap)));
            }
            _ => {}
        }
    }
    let mut decay = printed[Symbol::Decay as usize];
    let aether = if no_decay {
        decay = 0;
        0
    } else if let Some(cap) = max_decay {
        decay = decay.min(cap);
        // yucata: Seedling first cancels Cursed Land decay, so the decay it leaves is one
        // from another advancement if there is one, which Aether Tree can then cancel.
        if other_decay > 0 {
            0
        } else {
            cap.min(cursed_decay)
        }
    } else {
        cursed_decay
    };
    symbols[Symbol::Decay as usize] = decay;
    let growth = symbols[Symbol::Growth as usize];
    SleeveStats {
        symbols,
        printed,
        aether_decay: aether.min(decay),
        abilities,
        active_layers: active,
        has_cursed_land: has_cursed,
        level3,
        end_vp,
        neg_vp,
        net: decay - growth,
        aether_net: aether.min(decay) - growth,
    }
}

/// May copy `new` be sleeved on a card with these layers without covering an advancement
/// (Python's `can_sleeve`)?
///
/// An advancement may cover only an eclipse advancement, and an eclipse advancement may
/// cover nothing (file 003). Overlapping long-wise abilities are allowed (file 000); that
/// is not a slot conflict, so it needs no check here.
pub fn can_sleeve(cat: &Catalogue, layers: &[u16], new: u16) -> bool {
    if layers.iter().any(|&c| cat.copy_type(c).kind == Kind::Leader) {
        // No advancement may be sleeved on a leader unless it says so (file 003).
        return false;
    }
    let new_slots = cat.copies[usize::from(new)].slots;
    let new_eclipse = cat.copy_type(new).eclipse;
    for (pos, &copy) in layers.iter().enumerate() {
        let slots = cat.copies[usize::from(copy)].slots;
        if !slots.overlaps(new_slots) {
            continue;
        }
        if layers[pos + 1..].iter().any(|&o| cat.copies[usize::from(o)].slots.overlaps(slots)) {
            continue; // covered already
        }
        if new_eclipse {
            // An eclipse advancement slides beneath (harvest.sleeve_layers).
            continue;
        }
        if !cat.copy_type(copy).eclipse {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card_types::Slot;

    fn base() -> Catalogue {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/catalogue_base.json");
        Catalogue::from_table_json(&std::fs::read_to_string(path).unwrap(), "base").unwrap()
    }

    #[test]
    fn a_cursed_land_card_has_its_decay_and_room_below() {
        let cat = base();
        let cursed = cat.copy_id("Cursed Land", Slot::Top).unwrap();
        let s = compute_stats(&cat, &[cursed]);
        assert!(s.has_cursed_land);
        assert_eq!(s.get(Symbol::Decay), 1);
        assert_eq!(s.net, 1);
        let middle = cat.soil_copy(Slot::Middle);
        assert!(can_sleeve(&cat, &[cursed], middle));
        assert!(!can_sleeve(&cat, &[cursed], cat.soil_copy(Slot::Top)));
        let both = compute_stats(&cat, &[cursed, middle]);
        assert_eq!(both.get(Symbol::Mana), 2);
        assert_eq!(both.active_layers, vec![0, 1]);
    }
}

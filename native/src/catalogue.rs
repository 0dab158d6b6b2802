//! Twin of mysticvale/engine/catalogue.py: the cards of one game, indexed for the engine.
//!
//! Python reads and validates the card data and hands over one canonical JSON table
//! (`mysticvale/engine/native_catalogue.py`); this module builds the typed tables from it
//! once. An unknown effect, a parameter of the wrong type or a trigger the effect cannot
//! have fails here, at load, never in play. Indices are Python's: types in
//! `Catalogue.advancements` order, copies in `Catalogue.copies` order, vales in
//! `vale_list` order, leaders in `leaders` order.
#![forbid(unsafe_code)]

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::Value;

use crate::card_types::{
    Ability, AdvCopy, AdvancementType, Effect, Kind, LeaderType, Slot, Slots, Symbol, Trigger, ValeType, SLOTS, SYMBOLS,
};
use crate::errors::{py_repr, CatalogueError};

/// The table's format name and version (`native_catalogue.FORMAT`, `VERSION`).
pub const FORMAT: &str = "mysticvale-native-catalogue";
/// See [`FORMAT`].
pub const VERSION: u32 = 1;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TableRow {
    format: String,
    version: u32,
    sets: Vec<String>,
    symbols: Vec<String>,
    slots: Vec<String>,
    save: String,
    types: Vec<TypeRow>,
    copies: Vec<CopyRow>,
    vales: Vec<ValeRow>,
    leaders: Vec<LeaderRow>,
    starting: Vec<(String, u32)>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AbilityRow {
    trigger: Trigger,
    effect: String,
    params: Value,
    optional: bool,
    text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TypeRow {
    name: String,
    set: String,
    kind: Kind,
    level: u8,
    cost: i64,
    symbols: [i64; 10],
    end_vp: i64,
    neg_vp: i64,
    eclipse: bool,
    longwise: bool,
    generic: bool,
    abilities: Vec<AbilityRow>,
    text: String,
    note: String,
    stand_in: bool,
    provisional: Vec<String>,
    printed: Vec<u16>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CopyRow {
    label: String,
    #[serde(rename = "type")]
    type_id: u16,
    slots: Vec<Slot>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ValeRow {
    name: String,
    set: String,
    level: u8,
    cost: [i64; 4],
    end_vp: i64,
    neg_vp: i64,
    copies: u16,
    generic: bool,
    abilities: Vec<AbilityRow>,
    text: String,
    note: String,
    stand_in: bool,
    provisional: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LeaderRow {
    name: String,
    title: String,
    set: String,
    upgrade_cost: i64,
    start: Vec<u16>,
    upgraded: Vec<u16>,
    slug: String,
    stand_in: bool,
    text: String,
    note: String,
}

/// The resolved catalogue of one game: immutable, shared by every game and bot of those
/// cards through an [`Arc`].
#[derive(Debug, PartialEq, Eq)]
pub struct Catalogue {
    /// The chosen sets, in `KNOWN_SETS` order.
    pub sets: Vec<Box<str>>,
    /// The save's `"catalogue"` entry as Python's `serialize.dumps` writes it.
    pub save_json: Box<str>,
    /// Advancement types (starting advancements and leader parts included).
    pub types: Vec<AdvancementType>,
    /// Every advancement copy that can exist in a game; cards refer to copies by index.
    pub copies: Vec<AdvCopy>,
    /// Vale types.
    pub vales: Vec<ValeType>,
    /// Leaders.
    pub leaders: Vec<LeaderType>,
    /// (name, cards per deck) of each kind of starting card.
    pub starting: Vec<(Box<str>, u32)>,
    /// label -> copy id (lookups only: nothing walks it in play).
    copy_index: BTreeMap<Box<str>, u16>,
    /// vale name -> vale id.
    vale_index: BTreeMap<Box<str>, u16>,
    /// slot -> the Fertile Soil copy for that slot.
    soil_copies: [u16; 3],
    /// level 1-3 -> the supply deck's copies, in Python's `supply_copies` order.
    supply: [Vec<u16>; 3],
    /// Is a copy a part of a leader card?
    leader_copy: Vec<bool>,
    /// type -> the copy of each of its printed copies, in printed order.
    printed: Vec<Vec<u16>>,
    /// type name -> type id.
    type_index: BTreeMap<Box<str>, u16>,
    /// type -> (leader, upgraded side?) of a leader's part (Python's `leader_of`).
    leader_of: Vec<Option<(u16, bool)>>,
}

fn boxed(s: String) -> Box<str> {
    s.into_boxed_str()
}

fn abilities(rows: Vec<AbilityRow>, where_: &str, problems: &mut Vec<String>) -> Vec<Ability> {
    let mut out = Vec::with_capacity(rows.len());
    for (i, a) in rows.into_iter().enumerate() {
        let w = format!("{where_}, ability {}", i + 1);
        let tagged = serde_json::json!({"effect": a.effect, "params": a.params});
        let effect: Effect = match serde_json::from_value(tagged) {
            Ok(e) => e,
            Err(e) => {
                problems.push(format!("{w}: the native core cannot read effect {}: {e}", py_repr(&a.effect)));
                continue;
            }
        };
        if !effect.triggers().contains(&a.trigger) {
            problems.push(format!(
                "{w}: effect {} cannot have trigger {}",
                py_repr(effect.name()),
                py_repr(a.trigger.name())
            ));
            continue;
        }
        out.push(Ability { trigger: a.trigger, effect, optional: a.optional, text: boxed(a.text) });
    }
    out
}

impl Catalogue {
    /// Build the typed tables from `native_catalogue.table_json`'s text.
    ///
    /// # Errors
    /// A [`CatalogueError`] listing every problem: text that is not such a table, an
    /// unknown effect or parameter, a trigger the effect cannot have, an index out of range.
    pub fn from_table_json(text: &str, source: &str) -> Result<Catalogue, CatalogueError> {
        let row: TableRow = serde_json::from_str(text)
            .map_err(|e| CatalogueError::one(format!("not a native catalogue table: {e}"), source))?;
        if row.format != FORMAT || row.version != VERSION {
            return Err(CatalogueError::one(
                format!(
                    "table format {} version {} is not {} version {VERSION}",
                    py_repr(&row.format),
                    row.version,
                    py_repr(FORMAT)
                ),
                source,
            ));
        }
        let mut problems = Vec::new();
        let names: Vec<&str> = SYMBOLS.iter().map(|s| s.name()).collect();
        if row.symbols != names {
            problems.push(format!("the symbols {:?} are not the native core's {:?}", row.symbols, names));
        }
        let slot_names: Vec<&str> = SLOTS.iter().map(|s| s.name()).collect();
        if row.slots != slot_names {
            problems.push(format!("the slots {:?} are not the native core's {:?}", row.slots, slot_names));
        }
        let mut types = Vec::with_capacity(row.types.len());
        let mut printed = Vec::with_capacity(row.types.len());
        for t in row.types {
            printed.push(t.printed);
            let where_ = format!("advancement {}", py_repr(&t.name));
            let abilities = abilities(t.abilities, &where_, &mut problems);
            types.push(AdvancementType {
                name: boxed(t.name),
                set: boxed(t.set),
                kind: t.kind,
                level: t.level,
                cost: t.cost,
                symbols: t.symbols,
                end_vp: t.end_vp,
                neg_vp: t.neg_vp,
                abilities,
                eclipse: t.eclipse,
                longwise: t.longwise,
                generic: t.generic,
                text: boxed(t.text),
                note: boxed(t.note),
                stand_in: t.stand_in,
                provisional: t.provisional.into_iter().map(boxed).collect(),
            });
        }
        let n_types = types.len();
        let type_ok = |id: u16| usize::from(id) < n_types;
        let mut copies = Vec::with_capacity(row.copies.len());
        let mut copy_index = BTreeMap::new();
        for (i, c) in row.copies.into_iter().enumerate() {
            // A bad row is reported and kept in its place, so that the rows after it keep
            // their indices and each problem is reported once (the table is refused whole).
            let slots = Slots::of(&c.slots);
            let where_ = format!("copy {}", py_repr(&c.label));
            if !type_ok(c.type_id) {
                problems.push(format!("{where_}: type {} is out of range", c.type_id));
            } else {
                let joined: Vec<&str> = slots.iter().map(|s| s.name()).collect();
                let expected = format!("{}@{}", types[usize::from(c.type_id)].name, joined.join("+"));
                if slots.is_empty() || slots.len() as usize != c.slots.len() || c.label != expected {
                    problems.push(format!("{where_}: its type and slots make {}", py_repr(&expected)));
                }
            }
            match u16::try_from(i) {
                Ok(id) => {
                    if copy_index.insert(boxed(c.label.clone()), id).is_some() {
                        problems.push(format!("{where_} is listed twice"));
                    }
                }
                Err(_) => problems.push(format!("{where_}: more copies than the native core holds")),
            }
            copies.push(AdvCopy { label: boxed(c.label), type_id: c.type_id, slots });
        }
        let mut vales = Vec::with_capacity(row.vales.len());
        let mut vale_index = BTreeMap::new();
        for (i, v) in row.vales.into_iter().enumerate() {
            let where_ = format!("vale {}", py_repr(&v.name));
            let abilities = abilities(v.abilities, &where_, &mut problems);
            match u16::try_from(i) {
                Ok(id) => {
                    if vale_index.insert(boxed(v.name.clone()), id).is_some() {
                        problems.push(format!("{where_} is listed twice"));
                    }
                }
                Err(_) => problems.push(format!("{where_}: more vales than the native core holds")),
            }
            vales.push(ValeType {
                name: boxed(v.name),
                set: boxed(v.set),
                level: v.level,
                cost: v.cost,
                end_vp: v.end_vp,
                neg_vp: v.neg_vp,
                copies: v.copies,
                abilities,
                generic: v.generic,
                text: boxed(v.text),
                note: boxed(v.note),
                stand_in: v.stand_in,
                provisional: v.provisional.into_iter().map(boxed).collect(),
            });
        }
        let mut leaders = Vec::with_capacity(row.leaders.len());
        for l in row.leaders {
            if l.start.iter().chain(&l.upgraded).any(|&t| !type_ok(t)) {
                problems.push(format!("leader {}: a part's type is out of range", py_repr(&l.name)));
            }
            leaders.push(LeaderType {
                name: boxed(l.name),
                title: boxed(l.title),
                set: boxed(l.set),
                upgrade_cost: l.upgrade_cost,
                start: l.start,
                upgraded: l.upgraded,
                slug: boxed(l.slug),
                stand_in: l.stand_in,
                text: boxed(l.text),
                note: boxed(l.note),
            });
        }
        // Python's `soil_copies`: the first Fertile Soil type's copy for each slot.
        let soil_type = types.iter().position(|t| t.kind == Kind::FertileSoil);
        let mut soil_copies = [0u16; 3];
        match soil_type {
            None => problems.push("the catalogue has no Fertile Soil advancement".to_owned()),
            Some(st) => {
                for (k, slot) in SLOTS.into_iter().enumerate() {
                    let label = format!("{}@{}", types[st].name, slot.name());
                    match copy_index.get(label.as_str()) {
                        Some(&id) => soil_copies[k] = id,
                        None => problems.push(format!("the catalogue has no Fertile Soil copy {}", py_repr(&label))),
                    }
                }
            }
        }
        // Python's `supply_copies(level)`: every printed copy of every level-`level`
        // advancement type, in type order, then printed order.
        let mut supply: [Vec<u16>; 3] = [Vec::new(), Vec::new(), Vec::new()];
        for (t, ids) in types.iter().zip(&printed) {
            for &id in ids {
                let ok = match copies.get(usize::from(id)) {
                    None => false,
                    // A copy whose type is out of range is reported once, above.
                    Some(c) => !type_ok(c.type_id) || types[usize::from(c.type_id)].name == t.name,
                };
                if !ok {
                    problems
                        .push(format!("advancement {}: printed copy {id} is not one of its copies", py_repr(&t.name)));
                }
            }
            if t.kind == Kind::Advancement && (1..=3).contains(&t.level) {
                supply[usize::from(t.level - 1)].extend_from_slice(ids);
            }
        }
        if !problems.is_empty() {
            return Err(CatalogueError { problems, source: source.to_owned() });
        }
        let mut type_index = BTreeMap::new();
        for (id, t) in (0u16..).zip(&types) {
            type_index.entry(t.name.clone()).or_insert(id);
        }
        let mut leader_of = vec![None; types.len()];
        for (li, l) in (0u16..).zip(&leaders) {
            for (&t, upgraded) in l.start.iter().map(|t| (t, false)).chain(l.upgraded.iter().map(|t| (t, true))) {
                if let Some(slot) = leader_of.get_mut(usize::from(t)) {
                    *slot = Some((li, upgraded));
                }
            }
        }
        let leader_copy = copies.iter().map(|c| types[usize::from(c.type_id)].kind == Kind::Leader).collect();
        Ok(Catalogue {
            sets: row.sets.into_iter().map(boxed).collect(),
            save_json: boxed(row.save),
            types,
            copies,
            vales,
            leaders,
            starting: row.starting.into_iter().map(|(n, k)| (boxed(n), k)).collect(),
            copy_index,
            vale_index,
            soil_copies,
            supply,
            leader_copy,
            printed,
            type_index,
            leader_of,
        })
    }
}

impl Catalogue {
    /// Build the shared catalogue (see [`Catalogue::from_table_json`]).
    ///
    /// # Errors
    /// As [`Catalogue::from_table_json`].
    pub fn shared(text: &str, source: &str) -> Result<Arc<Catalogue>, CatalogueError> {
        Catalogue::from_table_json(text, source).map(Arc::new)
    }

    /// The copy of an advancement type's name and slot (Python's `copy_id`).
    pub fn copy_id(&self, name: &str, slot: Slot) -> Option<u16> {
        self.copy_index.get(format!("{name}@{}", slot.name()).as_str()).copied()
    }

    /// A copy's label (`"Aurora@top"`).
    pub fn label(&self, copy: u16) -> &str {
        &self.copies[usize::from(copy)].label
    }

    /// The copy of a label (Python's `from_label`), `None` if no copy has it.
    #[allow(clippy::wrong_self_convention)] // Python's name (Catalogue.from_label)
    pub fn from_label(&self, label: &str) -> Option<u16> {
        self.copy_index.get(label).copied()
    }

    /// The vale type of a name (Python's `vale_index`).
    pub fn vale_id(&self, name: &str) -> Option<u16> {
        self.vale_index.get(name).copied()
    }

    /// A copy's advancement type.
    pub fn copy_type(&self, copy: u16) -> &AdvancementType {
        &self.types[usize::from(self.copies[usize::from(copy)].type_id)]
    }

    /// The Fertile Soil copy for `slot` (Python's `soil_copies[slot]`).
    pub fn soil_copy(&self, slot: Slot) -> u16 {
        self.soil_copies[slot as usize]
    }

    /// Every printed copy of every level-`level` advancement type: the supply deck
    /// (Python's `supply_copies`); empty for a level outside 1-3.
    pub fn supply_copies(&self, level: u8) -> &[u16] {
        match level {
            1..=3 => &self.supply[usize::from(level - 1)],
            _ => &[],
        }
    }

    /// The vale deck of `level`: each vale type's id once per copy, in vale order
    /// (Python's `supply_vales`).
    pub fn supply_vales(&self, level: u8) -> Vec<u16> {
        let mut out = Vec::new();
        for (id, v) in (0u16..).zip(&self.vales) {
            if v.level == level {
                out.extend(std::iter::repeat_n(id, usize::from(v.copies)));
            }
        }
        out
    }

    /// The advancement type of a name (Python's `advancements.get(name)`).
    pub fn type_id(&self, name: &str) -> Option<u16> {
        self.type_index.get(name).copied()
    }

    /// The copy of each printed copy of a type, in printed order (Python's `t.copies`).
    pub fn printed_copies(&self, type_id: u16) -> &[u16] {
        self.printed.get(usize::from(type_id)).map_or(&[], |v| v.as_slice())
    }

    /// The leader a part type belongs to, and whether it is the upgraded side's.
    pub fn leader_of(&self, type_id: u16) -> Option<(u16, bool)> {
        self.leader_of.get(usize::from(type_id)).copied().flatten()
    }

    /// Is a copy a part of a leader card (Python's `leader_copies`)?
    pub fn is_leader_copy(&self, copy: u16) -> bool {
        self.leader_copy.get(usize::from(copy)).copied().unwrap_or(false)
    }

    /// The symbol array index of a symbol (for readers of [`AdvancementType::symbols`]).
    pub fn symbol_index(s: Symbol) -> usize {
        s as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> String {
        let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e} (run scripts/native_fixtures.py)"))
    }

    #[test]
    fn builds_every_builtin_set_list() {
        for sets in ["base", "base+vale_of_magic", "base+twilight_garden", "base+vale_of_magic+twilight_garden"] {
            let cat = Catalogue::from_table_json(&fixture(&format!("catalogue_{sets}.json")), sets).unwrap();
            assert_eq!(cat.sets.join("+"), sets);
            for level in 1..=3 {
                assert!(!cat.supply_copies(level).is_empty());
            }
            for (i, c) in cat.copies.iter().enumerate() {
                assert_eq!(cat.from_label(&c.label), Some(i as u16));
            }
            assert_eq!(cat.copy_type(cat.soil_copy(Slot::Middle)).kind, Kind::FertileSoil);
        }
    }

    #[test]
    fn an_unknown_effect_fails_at_load() {
        let text = fixture("catalogue_base.json").replacen("\"effect\":\"", "\"effect\":\"no_such_", 1);
        let err = Catalogue::from_table_json(&text, "t").unwrap_err();
        assert_eq!(err.problems.len(), 1);
        assert!(err.problems[0].contains("no_such_"), "{err}");
    }

    #[test]
    fn a_parameter_of_the_wrong_type_fails_at_load() {
        let text = fixture("catalogue_base.json").replacen("\"per\":2", "\"per\":\"two\"", 1);
        assert_ne!(text, fixture("catalogue_base.json"));
        assert!(Catalogue::from_table_json(&text, "t").is_err());
    }

    #[test]
    fn an_unknown_parameter_fails_at_load() {
        let text = fixture("catalogue_base.json").replacen("\"per\":2", "\"per\":2,\"bonus\":1", 1);
        assert!(Catalogue::from_table_json(&text, "t").is_err());
    }

    #[test]
    fn text_that_is_not_a_table_fails_with_its_source() {
        let err = Catalogue::from_table_json("[]", "mine").unwrap_err();
        assert!(err.to_string().starts_with("mine: 1 problem(s):\n  - not a native catalogue table"), "{err}");
    }
}

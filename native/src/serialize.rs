//! Twin of mysticvale/engine/serialize.py: the save, byte for byte the text the Python
//! engine writes (`json.dumps(state_to_dict(st), separators=(",", ":"), sort_keys=True)`).
//!
//! Advancement copies and vales are written by name (`"Aurora@top"`), so a save stays
//! readable and does not depend on the order of the catalogue files.
#![forbid(unsafe_code)]

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use crate::catalogue::Catalogue;
use crate::errors::{py_repr, SaveError};
use crate::pyjson::{parse, Key, J};
use crate::rng::{Rng, Seed, Stream};
use crate::rulesets::get_ruleset;
use crate::state::{
    CardId, CopyId, Event, Pending, Player, Purchase, State, Step, Turn, ValeId, DECISION_KINDS, PHASES, STEP_KINDS,
};

/// The save's format name.
pub const FORMAT: &str = "mysticvale-save";
/// The save's version (Python's `serialize.VERSION`).
pub const VERSION: i64 = 1;

fn ids<T: Copy + Into<i64>>(xs: &[T]) -> J {
    J::ints(xs)
}

fn opt_card(c: Option<CardId>) -> J {
    c.map_or(J::Null, |c| J::Int(i64::from(c)))
}

fn strs(xs: &[Box<str>]) -> J {
    J::List(xs.iter().map(|s| J::Str(s.clone())).collect())
}

/// Step and decision data with copy ids written as labels (Python's `_enc`).
fn enc(st: &State, data: &[(Key, J)]) -> J {
    J::Map(
        data.iter()
            .map(|(k, v)| {
                let v = match (&**k, v) {
                    ("copy", J::Int(c)) => match u16::try_from(*c) {
                        Ok(c) if usize::from(c) < st.cat.copies.len() => J::from(st.cat.label(c)),
                        _ => v.clone(),
                    },
                    ("items", J::List(items)) => J::List(
                        items
                            .iter()
                            .map(|it| match it {
                                J::Map(d) => enc(st, d),
                                other => other.clone(),
                            })
                            .collect(),
                    ),
                    _ => v.clone(),
                };
                (k.clone(), v)
            })
            .collect(),
    )
}

/// The whole game as Python's `state_to_dict`.
pub fn state_to_json(st: &State) -> J {
    let cat = &st.cat;
    let labels = |xs: &mut dyn Iterator<Item = Option<u16>>| -> J {
        J::List(xs.map(|c| c.map_or(J::Null, |c| J::from(cat.label(c)))).collect())
    };
    let players = st
        .players
        .iter()
        .map(|p| {
            J::map([
                ("deck", ids(&p.deck)),
                ("on_deck", opt_card(p.on_deck)),
                ("field", ids(&p.field)),
                ("discard", ids(&p.discard)),
                ("vales", ids(&p.vales)),
                ("vp_tokens", J::Int(p.vp_tokens)),
                ("curse_tokens", J::Int(p.curse_tokens)),
                ("mana_token_active", J::Bool(p.mana_token_active)),
                ("star", J::Bool(p.star)),
                ("known_top", ids(&p.known_top)),
                ("guards_used", strs(&p.guards_used)),
                ("aether_cards", ids(&p.aether_cards)),
                ("removed_vales", ids(&p.removed_vales)),
                ("aside", ids(&p.aside)),
                ("harvest_next", J::Bool(p.harvest_next)),
                ("dealt_leaders", strs(&p.dealt_leaders)),
                ("taken_unseen", ids(&p.taken_unseen)),
            ])
        })
        .collect();
    let level = |k: usize| -> Key { (k + 1).to_string().into() };
    let t = &st.turn;
    let turn = J::map([
        ("player", J::Int(i64::from(t.player))),
        ("phase", J::from(t.phase)),
        ("spoiled", J::Bool(t.spoiled)),
        ("mana_bonus", J::Int(t.mana_bonus)),
        ("mana_spent", J::Int(t.mana_spent)),
        ("spirit_spent", J::ints(&t.spirit_spent)),
        ("spirit_bonus", J::ints(&t.spirit_bonus)),
        ("vale_buys", J::Int(t.vale_buys)),
        ("vale_limit", J::Int(t.vale_limit)),
        ("adv_buys", J::Int(t.adv_buys)),
        (
            "purchases",
            J::List(
                t.purchases.iter().map(|p| J::List(vec![J::from(cat.label(p.copy)), opt_card(p.target)])).collect(),
            ),
        ),
        ("new_vales", ids(&t.new_vales)),
        ("new_layers", J::List(t.new_layers.iter().map(|x| J::ints(x)).collect())),
        ("used", strs(&t.used)),
        ("scored", ids(&t.scored)),
        ("kept", ids(&t.kept)),
        ("upgrades", ids(&t.upgrades)),
        ("phase_floor", J::Int(t.phase_floor)),
    ]);
    let states: Vec<(Key, J)> =
        st.rng.sorted_states().into_iter().map(|(k, v)| (k.into(), J::BigInt(v.to_string().into()))).collect();
    J::map([
        ("format", J::from(FORMAT)),
        ("version", J::Int(VERSION)),
        ("catalogue", J::Raw(cat.save_json.clone())),
        ("ruleset", J::from(st.ruleset.name)),
        ("rng", J::map([("seed", J::BigInt(st.rng.seed().as_str().into())), ("states", J::Map(states))])),
        ("cards", J::List(st.cards.iter().map(|c| labels(&mut c.iter().map(|&x| Some(x)))).collect())),
        ("owner", ids(&st.owner)),
        ("players", J::List(players)),
        (
            "adv_decks",
            J::Map(
                st.adv_decks
                    .iter()
                    .enumerate()
                    .map(|(k, v)| (level(k), labels(&mut v.iter().map(|&x| Some(x)))))
                    .collect(),
            ),
        ),
        (
            "commons",
            J::Map(st.commons.iter().enumerate().map(|(k, v)| (level(k), labels(&mut v.iter().copied()))).collect()),
        ),
        (
            "soil_left",
            J::Map(
                crate::card_types::SLOTS
                    .iter()
                    .zip(st.soil_left)
                    .map(|(s, n)| (Key::from(s.name()), J::Int(n)))
                    .collect(),
            ),
        ),
        ("vale_types", J::List(st.vale_types.iter().map(|&v| J::from(&*cat.vales[usize::from(v)].name)).collect())),
        ("vale_decks", J::Map(st.vale_decks.iter().enumerate().map(|(k, v)| (level(k), ids(v))).collect())),
        (
            "vale_rows",
            J::Map(
                st.vale_rows
                    .iter()
                    .enumerate()
                    .map(|(k, v)| (level(k), J::List(v.iter().map(|&x| opt_card(x)).collect())))
                    .collect(),
            ),
        ),
        ("vp_pool", J::Int(st.vp_pool)),
        ("vp_reserve_taken", J::Int(st.vp_reserve_taken)),
        ("curse_supply_taken", J::Int(st.curse_supply_taken)),
        ("first_player", J::Int(i64::from(st.first_player))),
        ("current", J::Int(i64::from(st.current))),
        ("round", J::Int(st.round)),
        ("turn_number", J::Int(st.turn_number)),
        ("turn", turn),
        (
            "steps",
            J::List(
                st.steps
                    .iter()
                    .map(|s| {
                        J::List(vec![J::Str(s.kind.as_ref().into()), J::Int(i64::from(s.player)), enc(st, &s.data)])
                    })
                    .collect(),
            ),
        ),
        (
            "pending",
            J::List(
                st.pending
                    .iter()
                    .map(|p| {
                        J::List(vec![
                            J::Str(p.kind.clone()),
                            J::Int(i64::from(p.player)),
                            enc(st, &p.data),
                            ids(&p.private),
                        ])
                    })
                    .collect(),
            ),
        ),
        ("end_triggered", st.end_triggered.as_deref().map_or(J::Null, J::from)),
        ("over", J::Bool(st.over)),
        ("winner_override", st.winner_override.as_ref().map_or(J::Null, |w| ids(w))),
        ("extra_turns", ids(&st.extra_turns)),
        ("seen_leaders", ids(&st.seen_leaders)),
        ("finish_turn", J::Bool(st.finish_turn)),
        (
            "events",
            J::List(
                st.events
                    .iter()
                    .map(|e| {
                        J::List(vec![
                            J::from(&*e.kind),
                            e.player.map_or(J::Null, |p| J::Int(i64::from(p))),
                            J::from(e.text.as_str()),
                            e.private_to.map_or(J::Null, |p| J::Int(i64::from(p))),
                            J::from(e.public_text.as_str()),
                            J::Map(e.data.clone()),
                        ])
                    })
                    .collect(),
            ),
        ),
        ("history", J::List(st.history.iter().map(|h| J::from(&**h)).collect())),
    ])
}

/// The save's text (Python's `serialize.dumps`).
pub fn dumps(st: &State) -> String {
    state_to_json(st).dumps()
}

// -- reading a save -----------------------------------------------------------------

fn corrupt(what: impl fmt::Display) -> SaveError {
    SaveError(format!("corrupt saved game: {what}"))
}

/// Python's `repr` of a JSON value (for messages).
pub fn j_repr(v: &J) -> String {
    match v {
        J::Null => "None".into(),
        J::Bool(true) => "True".into(),
        J::Bool(false) => "False".into(),
        J::Int(i) => i.to_string(),
        J::BigInt(s) | J::Raw(s) => s.to_string(),
        J::Str(s) => py_repr(s),
        J::List(xs) => format!("[{}]", xs.iter().map(j_repr).collect::<Vec<_>>().join(", ")),
        J::Map(kv) => format!(
            "{{{}}}",
            kv.iter().map(|(k, v)| format!("{}: {}", py_repr(k), j_repr(v))).collect::<Vec<_>>().join(", ")
        ),
    }
}

fn get<'a>(m: &'a J, key: &str) -> Option<&'a J> {
    match m {
        J::Map(kv) => kv.iter().find(|(k, _)| &**k == key).map(|(_, v)| v),
        _ => None,
    }
}

fn field<'a>(m: &'a J, key: &str) -> Result<&'a J, SaveError> {
    if !matches!(m, J::Map(_)) {
        return Err(corrupt(format_args!("expected a dict holding {}, not {}", py_repr(key), j_repr(m))));
    }
    get(m, key).ok_or_else(|| corrupt(format_args!("KeyError: {}", py_repr(key))))
}

fn int(v: &J, what: &str) -> Result<i64, SaveError> {
    match v {
        J::Int(i) => Ok(*i),
        _ => Err(corrupt(format_args!("{} must be a whole number, not {}", py_repr(what), j_repr(v)))),
    }
}

fn small<T: TryFrom<i64>>(v: &J, what: &str) -> Result<T, SaveError> {
    let i = int(v, what)?;
    T::try_from(i).map_err(|_| corrupt(format_args!("{} is out of range: {i}", py_repr(what))))
}

fn boolean(v: &J, what: &str) -> Result<bool, SaveError> {
    match v {
        J::Bool(b) => Ok(*b),
        _ => Err(corrupt(format_args!("{} must be true or false, not {}", py_repr(what), j_repr(v)))),
    }
}

fn text(v: &J, what: &str) -> Result<Box<str>, SaveError> {
    match v {
        J::Str(s) => Ok(s.clone()),
        _ => Err(corrupt(format_args!("{} must be text, not {}", py_repr(what), j_repr(v)))),
    }
}

fn list<'a>(v: &'a J, what: &str) -> Result<&'a [J], SaveError> {
    match v {
        J::List(xs) => Ok(xs),
        _ => Err(corrupt(format_args!("{} must be a list, not {}", py_repr(what), j_repr(v)))),
    }
}

fn smalls<T: TryFrom<i64>>(v: &J, what: &str) -> Result<Vec<T>, SaveError> {
    list(v, what)?.iter().map(|x| small(x, what)).collect()
}

fn opt_small<T: TryFrom<i64>>(v: &J, what: &str) -> Result<Option<T>, SaveError> {
    match v {
        J::Null => Ok(None),
        _ => small(v, what).map(Some),
    }
}

fn texts(v: &J, what: &str) -> Result<Vec<Box<str>>, SaveError> {
    list(v, what)?.iter().map(|x| text(x, what)).collect()
}

/// A list field that older saves may lack (Python's `p.get(key, [])`).
fn smalls_or_empty<T: TryFrom<i64>>(m: &J, key: &str) -> Result<Vec<T>, SaveError> {
    get(m, key).map_or(Ok(Vec::new()), |v| smalls(v, key))
}

fn copy_of(cat: &Catalogue, v: &J) -> Result<CopyId, SaveError> {
    let label = text(v, "copy")?;
    cat.from_label(&label)
        .ok_or_else(|| corrupt(format_args!("ValueError: no advancement copy {} in this catalogue", py_repr(&label))))
}

fn copies_of(cat: &Catalogue, v: &J, what: &str) -> Result<Vec<Option<CopyId>>, SaveError> {
    list(v, what)?.iter().map(|x| if *x == J::Null { Ok(None) } else { copy_of(cat, x).map(Some) }).collect()
}

fn dict_pairs(data: &J, what: &str) -> Result<Vec<(Key, J)>, SaveError> {
    match data {
        J::Map(kv) => Ok(kv.clone()),
        _ => Err(corrupt(format_args!("{} must be a dict, not {}", py_repr(what), j_repr(data)))),
    }
}

/// Step and decision data with labels read back as copy ids (Python's `_dec`).
fn dec(cat: &Catalogue, data: &J, what: &str) -> Result<Vec<(Key, J)>, SaveError> {
    let mut out = dict_pairs(data, what)?;
    for (k, v) in &mut out {
        if &**k == "copy" {
            *v = J::Int(i64::from(copy_of(cat, v)?));
        } else if &**k == "items" {
            let items =
                list(v, "items")?.iter().map(|it| dec(cat, it, "items").map(J::Map)).collect::<Result<_, _>>()?;
            *v = J::List(items);
        }
    }
    Ok(out)
}

/// Levels `1..=N` of a dict keyed by level (`{"1": [...], ...}`), each read by `read`.
fn levels<T, const N: usize>(
    v: &J,
    what: &str,
    mut read: impl FnMut(&J) -> Result<T, SaveError>,
) -> Result<[T; N], SaveError> {
    let J::Map(kv) = v else {
        return Err(corrupt(format_args!("{} must be a dict, not {}", py_repr(what), j_repr(v))));
    };
    if kv.len() != N {
        return Err(corrupt(format_args!("{} must have levels 1 to {N}", py_repr(what))));
    }
    let mut out: Vec<T> = Vec::with_capacity(N);
    for level in 1..=N {
        let x = get(v, &level.to_string())
            .ok_or_else(|| corrupt(format_args!("{} must have levels 1 to {N}", py_repr(what))))?;
        out.push(read(x)?);
    }
    out.try_into().map_err(|_| corrupt(format_args!("{} must have levels 1 to {N}", py_repr(what))))
}

fn row<const N: usize, T: Copy>(xs: Vec<Option<T>>, what: &str) -> Result<[Option<T>; N], SaveError> {
    xs.try_into().map_err(|_| corrupt(format_args!("each row of {} must hold {N} places", py_repr(what))))
}

/// Rebuild a game from a save's text (Python's `serialize.loads`), with the catalogue the
/// save names (Python resolves it: `catalogue_from_json`).
///
/// # Errors
/// A [`SaveError`] for anything not a valid save (Python's messages for the checks both
/// engines make: format, version, every card and vale in one place, known steps,
/// decisions and phases); nothing is half-loaded.
pub fn loads(cat: Arc<Catalogue>, text_: &str) -> Result<State, SaveError> {
    let data = parse(text_).map_err(|e| SaveError(format!("not a saved game: the text is not valid JSON ({e})")))?;
    if get(&data, "format") != Some(&J::from(FORMAT)) {
        return Err(SaveError("not a saved game: the 'format' field is missing or wrong".into()));
    }
    match get(&data, "version") {
        Some(J::Int(VERSION)) => {}
        other => {
            let shown = other.map_or("None".to_owned(), j_repr);
            return Err(SaveError(format!("saved game version {shown} is not supported (expected {VERSION})")));
        }
    }
    let d = &data;
    let (st, phase) = from_dict(cat, d)?;
    check(&st, &phase)?;
    let mut st = st;
    st.turn.phase = PHASES.iter().copied().find(|p| *p == &*phase).unwrap_or("planting");
    Ok(st)
}

fn from_dict(cat: Arc<Catalogue>, d: &J) -> Result<(State, Box<str>), SaveError> {
    let c = &*cat;
    field(d, "catalogue")?;
    let ruleset =
        get_ruleset(&text(field(d, "ruleset")?, "ruleset")?).map_err(|e| corrupt(format!("ValueError: {e}")))?;
    let r = field(d, "rng")?;
    let seed_j = field(r, "seed")?;
    let seed = match seed_j {
        J::Int(i) => Seed::parse(&i.to_string()),
        J::BigInt(s) => Seed::parse(s),
        _ => None,
    }
    .ok_or_else(|| corrupt(format_args!("the seed must be a whole number, not {}", j_repr(seed_j))))?;
    let mut states = Vec::new();
    for (k, v) in dict_pairs(field(r, "states")?, "states")? {
        let s = match v {
            J::Int(i) => u64::try_from(i).ok(),
            J::BigInt(ref t) => t.parse::<u64>().ok(),
            _ => None,
        }
        .ok_or_else(|| corrupt(format_args!("a random stream's state must fit 64 bits, not {}", j_repr(&v))))?;
        states.push((Stream::from_name(&k), s));
    }
    let rng = Rng::with_states(seed, states);
    let cards = list(field(d, "cards")?, "cards")?
        .iter()
        .map(|x| list(x, "cards")?.iter().map(|l| copy_of(c, l)).collect::<Result<Vec<_>, _>>().map(Arc::from))
        .collect::<Result<Vec<_>, _>>()?;
    let owner = smalls(field(d, "owner")?, "owner")?;
    let mut players = Vec::new();
    for p in list(field(d, "players")?, "players")? {
        players.push(Player {
            deck: smalls(field(p, "deck")?, "deck")?,
            on_deck: opt_small(field(p, "on_deck")?, "on_deck")?,
            field: smalls(field(p, "field")?, "field")?,
            discard: smalls(field(p, "discard")?, "discard")?,
            vales: smalls(field(p, "vales")?, "vales")?,
            vp_tokens: int(field(p, "vp_tokens")?, "vp_tokens")?,
            curse_tokens: int(field(p, "curse_tokens")?, "curse_tokens")?,
            mana_token_active: boolean(field(p, "mana_token_active")?, "mana_token_active")?,
            star: boolean(field(p, "star")?, "star")?,
            known_top: smalls(field(p, "known_top")?, "known_top")?,
            guards_used: texts(field(p, "guards_used")?, "guards_used")?,
            aether_cards: smalls(field(p, "aether_cards")?, "aether_cards")?,
            removed_vales: smalls(field(p, "removed_vales")?, "removed_vales")?,
            aside: smalls_or_empty(p, "aside")?,
            harvest_next: get(p, "harvest_next").map_or(Ok(false), |v| boolean(v, "harvest_next"))?,
            dealt_leaders: get(p, "dealt_leaders").map_or(Ok(Vec::new()), |v| texts(v, "dealt_leaders"))?,
            taken_unseen: smalls_or_empty(p, "taken_unseen")?,
        });
    }
    let adv_decks: [Vec<CopyId>; 3] = levels(field(d, "adv_decks")?, "adv_decks", |v| {
        copies_of(c, v, "adv_decks")?
            .into_iter()
            .map(|x| x.ok_or_else(|| corrupt("a supply deck holds None")))
            .collect()
    })?;
    let commons: [[Option<CopyId>; 3]; 3] =
        levels(field(d, "commons")?, "commons", |v| row(copies_of(c, v, "commons")?, "commons"))?;
    let soil = field(d, "soil_left")?;
    let soil_pairs = dict_pairs(soil, "soil_left")?;
    if soil_pairs.len() != 3 {
        return Err(corrupt("'soil_left' must count the three slots"));
    }
    let mut soil_left = [0i64; 3];
    for (k, slot) in crate::card_types::SLOTS.iter().enumerate() {
        soil_left[k] = int(field(soil, slot.name())?, "soil_left")?;
    }
    let vale_types = texts(field(d, "vale_types")?, "vale_types")?
        .iter()
        .map(|n| c.vale_id(n).ok_or_else(|| corrupt(format_args!("KeyError: {}", py_repr(n)))))
        .collect::<Result<Vec<_>, _>>()?;
    let vale_decks: [Vec<ValeId>; 2] = levels(field(d, "vale_decks")?, "vale_decks", |v| smalls(v, "vale_decks"))?;
    let vale_rows: [[Option<ValeId>; 4]; 2] = levels(field(d, "vale_rows")?, "vale_rows", |v| {
        let xs = list(v, "vale_rows")?.iter().map(|x| opt_small(x, "vale_rows")).collect::<Result<Vec<_>, _>>()?;
        row(xs, "vale_rows")
    })?;
    let t = field(d, "turn")?;
    let phase = text(field(t, "phase")?, "phase")?;
    let four = |v: &J, what: &str| -> Result<[i64; 4], SaveError> {
        let xs = list(v, what)?.iter().map(|x| int(x, what)).collect::<Result<Vec<_>, _>>()?;
        xs.try_into().map_err(|_| corrupt(format_args!("{} must hold 4 numbers", py_repr(what))))
    };
    let turn = Turn {
        player: small(field(t, "player")?, "player")?,
        phase: "planting", // set from `phase` once it is checked
        spoiled: boolean(field(t, "spoiled")?, "spoiled")?,
        mana_bonus: int(field(t, "mana_bonus")?, "mana_bonus")?,
        mana_spent: int(field(t, "mana_spent")?, "mana_spent")?,
        spirit_spent: four(field(t, "spirit_spent")?, "spirit_spent")?,
        spirit_bonus: four(field(t, "spirit_bonus")?, "spirit_bonus")?,
        vale_buys: int(field(t, "vale_buys")?, "vale_buys")?,
        vale_limit: int(field(t, "vale_limit")?, "vale_limit")?,
        adv_buys: int(field(t, "adv_buys")?, "adv_buys")?,
        purchases: list(field(t, "purchases")?, "purchases")?
            .iter()
            .map(|x| match list(x, "purchases")? {
                [copy, target] => Ok(Purchase { copy: copy_of(c, copy)?, target: opt_small(target, "purchases")? }),
                _ => Err(corrupt("a purchase is [copy, target]")),
            })
            .collect::<Result<_, _>>()?,
        new_vales: smalls(field(t, "new_vales")?, "new_vales")?,
        new_layers: list(field(t, "new_layers")?, "new_layers")?
            .iter()
            .map(|x| match list(x, "new_layers")? {
                [a, b] => Ok([int(a, "new_layers")?, int(b, "new_layers")?]),
                _ => Err(corrupt("a new layer is [card, layer]")),
            })
            .collect::<Result<_, _>>()?,
        used: texts(field(t, "used")?, "used")?,
        scored: smalls(field(t, "scored")?, "scored")?,
        kept: smalls(field(t, "kept")?, "kept")?,
        upgrades: smalls_or_empty(t, "upgrades")?,
        phase_floor: get(t, "phase_floor").map_or(Ok(0), |v| int(v, "phase_floor"))?,
    };
    let steps = list(field(d, "steps")?, "steps")?
        .iter()
        .map(|x| match list(x, "steps")? {
            [k, p, data] => {
                let kind = text(k, "steps")?;
                // A known kind is the engine's own text; another is kept for `check` to refuse.
                let kind = match STEP_KINDS.iter().find(|&&known| known == &*kind) {
                    Some(&known) => Cow::Borrowed(known),
                    None => Cow::Owned(kind.into()),
                };
                Ok(Step { kind, player: small(p, "steps")?, data: dec(c, data, "steps")? })
            }
            _ => Err(corrupt("a step is [kind, player, data]")),
        })
        .collect::<Result<_, _>>()?;
    let pending = list(field(d, "pending")?, "pending")?
        .iter()
        .map(|x| match list(x, "pending")? {
            [k, p, data, private] => Ok(Pending {
                kind: text(k, "pending")?,
                player: small(p, "pending")?,
                data: dec(c, data, "pending")?,
                private: smalls(private, "pending")?,
            }),
            _ => Err(corrupt("a decision is [kind, player, data, private]")),
        })
        .collect::<Result<_, _>>()?;
    let events = list(field(d, "events")?, "events")?
        .iter()
        .map(|x| match list(x, "events")? {
            [k, p, tx, pt, public, data] => Ok(Event {
                kind: Cow::Owned(text(k, "events")?.into()),
                player: opt_small(p, "events")?,
                text: text(tx, "events")?.into(),
                private_to: opt_small(pt, "events")?,
                public_text: text(public, "events")?.into(),
                data: dict_pairs(data, "events")?,
            }),
            _ => Err(corrupt("an event is [kind, player, text, private_to, public_text, data]")),
        })
        .collect::<Result<_, _>>()?;
    let finish_turn = match get(d, "finish_turn") {
        None => false,
        Some(J::Bool(b)) => *b,
        Some(v) => return Err(corrupt(format_args!("'finish_turn' must be true or false, not {}", j_repr(v)))),
    };
    let end_triggered = match field(d, "end_triggered")? {
        J::Null => None,
        v => Some(text(v, "end_triggered")?),
    };
    let winner_override = match field(d, "winner_override")? {
        J::Null => None,
        v => Some(smalls(v, "winner_override")?),
    };
    let st = State {
        ruleset,
        rng,
        cards: Arc::new(cards),
        owner: Arc::new(owner),
        players,
        adv_decks,
        commons,
        soil_left,
        vale_types: Arc::new(vale_types),
        vale_decks,
        vale_rows,
        vp_pool: int(field(d, "vp_pool")?, "vp_pool")?,
        vp_reserve_taken: int(field(d, "vp_reserve_taken")?, "vp_reserve_taken")?,
        curse_supply_taken: int(field(d, "curse_supply_taken")?, "curse_supply_taken")?,
        first_player: small(field(d, "first_player")?, "first_player")?,
        current: small(field(d, "current")?, "current")?,
        round: int(field(d, "round")?, "round")?,
        turn_number: int(field(d, "turn_number")?, "turn_number")?,
        turn,
        steps,
        pending,
        end_triggered,
        over: boolean(field(d, "over")?, "over")?,
        winner_override,
        extra_turns: smalls(field(d, "extra_turns")?, "extra_turns")?,
        seen_leaders: smalls_or_empty(d, "seen_leaders")?,
        finish_turn,
        events,
        history: texts(field(d, "history")?, "history")?.into_iter().collect(),
        cat,
        stats_memo: Arc::default(),
    };
    Ok((st, phase))
}

/// The consistency checks a save must pass (Python's `_check`), then the phase set.
fn check(st: &State, phase: &str) -> Result<(), SaveError> {
    let n = st.cards.len();
    if st.owner.len() != n || !(2..=4).contains(&st.players.len()) {
        return Err(corrupt("card owners or player count do not match"));
    }
    let mut seen: Vec<usize> = Vec::with_capacity(n);
    for pl in &st.players {
        let all = pl.deck.iter().chain(&pl.field).chain(&pl.discard).chain(&pl.aside).chain(pl.on_deck.as_ref());
        seen.extend(all.map(|&c| usize::from(c)));
    }
    seen.sort_unstable();
    if !seen.iter().copied().eq(0..n) {
        return Err(corrupt("the cards are not each in exactly one place"));
    }
    let mut vales: Vec<usize> = Vec::new();
    for pl in &st.players {
        vales.extend(pl.vales.iter().chain(&pl.removed_vales).map(|&v| usize::from(v)));
    }
    for deck in &st.vale_decks {
        vales.extend(deck.iter().map(|&v| usize::from(v)));
    }
    for row in &st.vale_rows {
        vales.extend(row.iter().flatten().map(|&v| usize::from(v)));
    }
    vales.sort_unstable();
    if !vales.iter().copied().eq(0..st.vale_types.len()) {
        return Err(corrupt("the vale cards are not each in exactly one place"));
    }
    for s in &st.steps {
        if !STEP_KINDS.contains(&&*s.kind) {
            return Err(corrupt(format_args!("unknown rules step {}", py_repr(&s.kind))));
        }
    }
    for p in &st.pending {
        if !DECISION_KINDS.contains(&&*p.kind) {
            return Err(corrupt(format_args!("unknown decision {}", py_repr(&p.kind))));
        }
    }
    if st.turn.phase_floor < 0 {
        return Err(corrupt("the phase's place on the step stack is negative"));
    }
    if !PHASES.contains(&phase) {
        return Err(corrupt(format_args!("unknown phase {}", py_repr(phase))));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::testing::fixture;

    #[test]
    fn a_python_save_reads_and_writes_back_byte_for_byte() {
        let cat = Catalogue::shared(&fixture("catalogue_base.json"), "base").unwrap();
        let text = fixture("save_base_midgame.json");
        let st = loads(cat, &text).unwrap();
        assert_eq!(dumps(&st), text);
        assert_eq!(st.players.len(), 3);
    }

    #[test]
    fn a_corrupt_save_is_refused_with_pythons_message() {
        let cat = Catalogue::shared(&fixture("catalogue_base.json"), "base").unwrap();
        let text = fixture("save_base_midgame.json").replacen("\"version\":1", "\"version\":\"1\"", 1);
        let err = loads(cat.clone(), &text).unwrap_err();
        assert_eq!(err.0, "saved game version '1' is not supported (expected 1)");
        let text = fixture("save_base_midgame.json").replacen("\"phase\":\"", "\"phase\":\"x", 1);
        assert!(loads(cat, &text).unwrap_err().0.starts_with("corrupt saved game: unknown phase 'x"));
    }
}

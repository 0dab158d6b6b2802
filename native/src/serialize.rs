//! Twin of mysticvale/engine/serialize.py: the save, byte for byte the text the Python
//! engine writes (`json.dumps(state_to_dict(st), separators=(",", ":"), sort_keys=True)`).
//!
//! Advancement copies and vales are written by name (`"Aurora@top"`), so a save stays
//! readable and does not depend on the order of the catalogue files.
#![forbid(unsafe_code)]

use crate::pyjson::J;
use crate::state::{CardId, State};

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
fn enc(st: &State, data: &[(Box<str>, J)]) -> J {
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
    let level = |k: usize| -> Box<str> { (k + 1).to_string().into() };
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
    let states: Vec<(Box<str>, J)> =
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
                    .map(|(s, n)| (Box::<str>::from(s.name()), J::Int(n)))
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
                    .map(|s| J::List(vec![J::Str(s.kind.clone()), J::Int(i64::from(s.player)), enc(st, &s.data)]))
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
                            J::from(e.kind),
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
        ("history", strs(&st.history)),
    ])
}

/// The save's text (Python's `serialize.dumps`).
pub fn dumps(st: &State) -> String {
    state_to_json(st).dumps()
}

//! Twin of mysticvale/engine/observation.py: what one seat may know of the game, and the
//! event log as that seat may read it.
//!
//! Nearly everything in Mystic Vale is public. Every card a player owns was bought and
//! sleeved in front of everyone, and the yucata interface shows any player's whole deck
//! (file 000: "If you click on the single card back, the whole deck of that player is
//! shown"), so each player's cards are public as a set: the `owned` list of every player,
//! sorted by card id, without saying where each card is. Hidden are the *order* of every
//! deck (player decks below the on-deck card, the supply decks); which of another player's
//! cards are in the deck and which in the discard pile (file 000: "You may not look at
//! cards in other players' discard piles"); cards a player looks at privately; and which
//! leader an opponent keeps until it is face up (file 003; it shows as an unseen leader
//! card). An observation never holds the order of a deck: a seat's own deck is listed
//! sorted by card id, and only the cards on top whose order that seat legitimately knows
//! (after e.g. Wood Sprite Hoard) are listed in order.
//!
//! The schema is Python's (see the docstring of `observation.py`): [`observe`] returns a
//! [`J`] whose `json.dumps(..., sort_keys=True)` is the Python observation's, key for key
//! and list for list. Python shares its card views between calls through the catalogue's
//! memo; here the catalogue is immutable and shared between threads, so one call builds
//! each of a player's card views once (from the card's stats, computed once) and the zone
//! lists (field, on deck, set aside, the viewer's deck and discard) copy them.
#![forbid(unsafe_code)]

use crate::card_types::{Slot, Symbol, SLOTS, SYMBOLS};
use crate::flow::acting_player;
use crate::harvest::{buy_options, mana_available, spirits_available};
use crate::pyjson::{Key, J};
use crate::registry;
use crate::scoring::{breakdown, winners, Breakdown};
use crate::sleeve::{AbilityRef, SleeveStats};
use crate::state::{CardId, CopyId, State, ValeId};
use crate::zones::{get, net_decay, stats};

/// The spirit symbols, in Python's `SPIRITS` order.
const SPIRITS: [Symbol; 4] = [Symbol::Animal, Symbol::Forest, Symbol::Sky, Symbol::Wild];
/// The names of a spirit cost's four parts (a vale's cost, the spirits spent).
const COST_PARTS: [&str; 4] = ["animal", "forest", "sky", "any"];

fn int(v: impl Into<i64>) -> J {
    J::Int(v.into())
}

fn opt_int<T: Into<i64>>(v: Option<T>) -> J {
    v.map_or(J::Null, |x| J::Int(x.into()))
}

fn strs<'a>(xs: impl IntoIterator<Item = &'a str>) -> J {
    J::List(xs.into_iter().map(J::from).collect())
}

/// Each distinct item once, in the order first seen (Python's `list(dict.fromkeys(xs))`).
fn distinct<'a>(xs: impl IntoIterator<Item = &'a str>) -> J {
    let mut out: Vec<&str> = Vec::new();
    for x in xs {
        if !out.contains(&x) {
            out.push(x);
        }
    }
    strs(out)
}

// -- views of cards, advancements and vales ------------------------------------------

/// A card as every seat sees it (Python's `card_view`); `J::Null` for an id that is not a
/// card of this game (the engine never asks for one).
pub fn card_view(st: &State, card: CardId) -> J {
    let Some(layers) = st.cards.get(usize::from(card)) else { return J::Null };
    card_view_with(st, card, layers, &stats(st, card))
}

/// Python's `_card_view`: besides its symbols and abilities, `stand_ins` [name] for its
/// advancements that stand in for a printed card the rules do not describe, and
/// `provisional` [name] for those with a printed value the rules do not give (a cost, a
/// symbol...; shared/cards/README.md). Covered advancements are not counted. The card
/// data's notes are for the catalogue's readers, not for players: they are not here.
fn card_view_with(st: &State, card: CardId, layers: &[CopyId], s: &SleeveStats) -> J {
    let cat = &st.cat;
    let active = |i: usize| s.active_layers.iter().any(|&a| usize::from(a) == i);
    let types = || s.active_layers.iter().filter_map(|&i| layers.get(usize::from(i))).map(|&c| cat.copy_type(c));
    let mut name = String::new();
    for t in types() {
        if !name.is_empty() {
            name.push_str(" + ");
        }
        name.push_str(&t.name);
    }
    if name.is_empty() {
        name.push_str("Blank");
    }
    let sym = |k: Symbol| J::Int(s.get(k));
    let abilities = s.abilities.iter().map(|r| J::from(ability_text(st, r))).collect();
    let free_slots = SLOTS.iter().filter(|&&sl| !s.active_layers.iter().any(|&i| slot_of(st, layers, i, sl)));
    J::map([
        ("id", int(card)),
        ("name", J::from(name)),
        ("advancements", strs(layers.iter().map(|&c| cat.label(c)))),
        ("covered", strs(layers.iter().enumerate().filter(|&(i, _)| !active(i)).map(|(_, &c)| cat.label(c)))),
        ("mana", sym(Symbol::Mana)),
        ("growth", sym(Symbol::Growth)),
        ("decay", sym(Symbol::Decay)),
        ("vp", sym(Symbol::Vp)),
        ("curse", sym(Symbol::Curse)),
        ("guardian", sym(Symbol::Guardian)),
        (
            "spirits",
            J::map([
                ("animal", sym(Symbol::Animal)),
                ("forest", sym(Symbol::Forest)),
                ("sky", sym(Symbol::Sky)),
                ("wild", sym(Symbol::Wild)),
            ]),
        ),
        ("end_vp", J::Int(s.end_vp)),
        ("neg_vp", J::Int(s.neg_vp)),
        ("abilities", J::List(abilities)),
        ("free_slots", strs(free_slots.map(|sl| sl.name()))),
        ("stand_ins", distinct(types().filter(|t| t.stand_in).map(|t| &*t.name))),
        ("provisional", distinct(types().filter(|t| !t.provisional.is_empty()).map(|t| &*t.name))),
    ])
}

/// Does layer `i` of a card fill slot `sl`?
fn slot_of(st: &State, layers: &[CopyId], i: u8, sl: Slot) -> bool {
    layers.get(usize::from(i)).is_some_and(|&c| st.cat.copies[usize::from(c)].slots.contains(sl))
}

/// An ability as a card view lists it: its advancement's name, then its own text or, when
/// it has none, the advancement's printed text.
fn ability_text(st: &State, r: &AbilityRef) -> String {
    let t = st.cat.copy_type(r.copy);
    let ab = r.ability(&st.cat);
    let text = if ab.text.is_empty() { &t.text } else { &ab.text };
    format!("{}: {text}", t.name)
}

/// An advancement copy (in the commons, being sleeved, looked at; Python's `copy_view`).
/// `text` is the printed card's text; `stand_in` marks a card standing in for a printed
/// one the rules do not describe, and `provisional` lists its printed values the rules do
/// not give (`cost`, `symbols`, ...). `J::Null` for an id that is not a copy of this
/// catalogue.
pub fn copy_view(st: &State, copy: CopyId) -> J {
    let Some(c) = st.cat.copies.get(usize::from(copy)) else { return J::Null };
    let t = st.cat.copy_type(copy);
    let symbols =
        SYMBOLS.iter().zip(t.symbols).filter(|&(_, v)| v != 0).map(|(k, v)| (k.name().into(), J::Int(v))).collect();
    J::map([
        ("label", J::Str(c.label.clone())),
        ("name", J::Str(t.name.clone())),
        ("level", int(t.level)),
        ("cost", J::Int(t.cost)),
        ("slots", strs(c.slots.iter().map(Slot::name))),
        ("symbols", J::Map(symbols)),
        ("end_vp", J::Int(t.end_vp)),
        ("neg_vp", J::Int(t.neg_vp)),
        ("eclipse", J::Bool(t.eclipse)),
        ("longwise", J::Bool(t.longwise)),
        ("legendary", J::Bool(c.slots.len() > 1)),
        ("text", J::Str(t.text.clone())),
        ("set", J::Str(t.set.clone())),
        ("stand_in", J::Bool(t.stand_in)),
        ("provisional", strs(t.provisional.iter().map(|p| &**p))),
    ])
}

/// A vale card (Python's `vale_view`); `text`, `stand_in` and `provisional` as in a
/// copy view; `bought_this_turn` for a vale its player bought this turn (its ability is not
/// usable yet, file 000). `J::Null` for an id that is not a vale of this game.
pub fn vale_view(st: &State, v: ValeId, new: bool) -> J {
    let Some(vt) = st.vale_types.get(usize::from(v)).and_then(|&t| st.cat.vales.get(usize::from(t))) else {
        return J::Null;
    };
    J::map([
        ("id", int(v)),
        ("name", J::Str(vt.name.clone())),
        ("level", int(vt.level)),
        ("cost", J::Map(COST_PARTS.iter().zip(vt.cost).map(|(k, c)| ((*k).into(), J::Int(c))).collect())),
        ("end_vp", J::Int(vt.end_vp)),
        ("neg_vp", J::Int(vt.neg_vp)),
        ("text", J::Str(vt.text.clone())),
        ("set", J::Str(vt.set.clone())),
        ("bought_this_turn", J::Bool(new)),
        ("stand_in", J::Bool(vt.stand_in)),
        ("provisional", strs(vt.provisional.iter().map(|p| &**p))),
    ])
}

/// How a leader card that has never been face up looks to the other seats: a card with a
/// leader in it, which one not yet known (file 003; Python's `unseen_leader_view`).
pub fn unseen_leader_view(card: CardId) -> J {
    let zero = || J::Int(0);
    J::map([
        ("id", int(card)),
        ("name", J::from("Leader (not yet revealed)")),
        ("advancements", J::List(Vec::new())),
        ("covered", J::List(Vec::new())),
        ("mana", zero()),
        ("growth", zero()),
        ("decay", zero()),
        ("vp", zero()),
        ("curse", zero()),
        ("guardian", zero()),
        ("spirits", J::map([("animal", zero()), ("forest", zero()), ("sky", zero()), ("wild", zero())])),
        ("end_vp", zero()),
        ("neg_vp", zero()),
        ("abilities", J::List(Vec::new())),
        ("free_slots", J::List(Vec::new())),
        ("unseen_leader", J::Bool(true)),
    ])
}

// -- a player's cards ------------------------------------------------------------------

/// One player's cards as views: the ids of every card the player owns, sorted, each with
/// its view and whether it is a leader card (Python's `_Owned`).
struct Owned {
    /// (card, its view, is it a leader card?), sorted by card id.
    cards: Vec<(CardId, J, bool)>,
}

impl Owned {
    /// Every card seat `p` owns (deck, field, discard, set aside, on deck), sorted.
    fn of(st: &State, p: &crate::state::Player) -> Owned {
        let ids = p.owned_sorted();
        let cards = ids
            .into_iter()
            .map(|c| {
                let layers = st.cards.get(usize::from(c)).map_or(&[][..], |l| &l[..]);
                let leader = layers.iter().any(|&x| st.cat.is_leader_copy(x));
                (c, card_view_with(st, c, layers, &stats(st, c)), leader)
            })
            .collect();
        Owned { cards }
    }

    /// The view of one of the player's cards.
    fn view(&self, card: CardId) -> J {
        self.cards.binary_search_by_key(&card, |x| x.0).map_or(J::Null, |i| self.cards[i].1.clone())
    }

    /// Views of some of the player's cards, in the order given.
    fn views(&self, cards: impl IntoIterator<Item = CardId>) -> J {
        J::List(cards.into_iter().map(|c| self.view(c)).collect())
    }

    /// The owned list as `viewer` may see it (Python's `owned_view`): another seat's
    /// leader never face up since it was sleeved shows as an unseen leader card (as
    /// `leaders.unseen_leaders`).
    fn list(&self, st: &State, p: &crate::state::Player, mine: bool) -> J {
        J::List(
            self.cards
                .iter()
                .map(|(c, view, leader)| {
                    let hidden = !mine
                        && *leader
                        && !st.seen_leaders.contains(c)
                        && !p.field.contains(c)
                        && p.on_deck != Some(*c);
                    if hidden {
                        unseen_leader_view(*c)
                    } else {
                        view.clone()
                    }
                })
                .collect(),
        )
    }
}

/// Every card seat `p` owns, as `viewer` may see it (Python's `owned_view`): sorted by card
/// id, so that it says nothing of where each card is or in what order (the deck, the
/// discard pile and the field are one list); another seat's leader never face up shows as
/// [`unseen_leader_view`].
pub fn owned_view(st: &State, p: u8, viewer: Option<u8>) -> J {
    let Some(pl) = st.players.get(usize::from(p)) else { return J::List(Vec::new()) };
    Owned::of(st, pl).list(st, pl, viewer == Some(p))
}

// -- the Harvest's prices -------------------------------------------------------------

/// {buy action's notation: mana it costs now}, as Python's dict comprehension builds it
/// (a later option for the same action overwrites the price of the earlier one).
fn prices(st: &State) -> J {
    let mut out: Vec<(Key, J)> = Vec::new();
    for o in buy_options(st, false, None, 0) {
        let words = match o.target {
            None => format!("buy {}", o.market),
            Some(t) => format!("buy {} on #{t}", o.market),
        };
        match out.iter_mut().find(|(k, _)| **k == *words) {
            Some(slot) => slot.1 = J::Int(o.price),
            None => out.push((words.into(), J::Int(o.price))),
        }
    }
    J::Map(out)
}

// -- the observation ---------------------------------------------------------------------

fn breakdown_view(b: &Breakdown) -> J {
    J::map([
        ("vp_tokens", J::Int(b.vp_tokens)),
        ("advancements", J::Int(b.advancements)),
        ("vales", J::Int(b.vales)),
        ("negative_vp", J::Int(b.negative_vp)),
        ("curse_tokens", J::Int(b.curse_tokens)),
        ("total", J::Int(b.total)),
        ("tiebreak", J::Int(b.tiebreak)),
    ])
}

/// The active player's Harvest resources (the observation's `turn`).
fn turn_view(st: &State, viewer: Option<u8>) -> J {
    let t = &st.turn;
    let mut out: Vec<(Key, J)> = Vec::with_capacity(12);
    let mut put = |k: &'static str, v: J| out.push((k.into(), v));
    put("player", int(t.player));
    put("spoiled", J::Bool(t.spoiled));
    put("advancement_buys", J::Int(t.adv_buys));
    put("vale_buys", J::Int(t.vale_buys));
    put("vale_limit", J::Int(t.vale_limit));
    put("bought", strs(t.purchases.iter().map(|pu| st.cat.label(pu.copy))));
    put("upgrades", J::ints(&t.upgrades));
    put("used", strs(t.used.iter().map(|u| &**u)));
    if t.phase == "harvest" {
        let have = spirits_available(st);
        put("mana", J::Int(mana_available(st)));
        put("spirits", J::Map(SPIRITS.iter().zip(have).map(|(s, n)| (s.name().into(), J::Int(n))).collect()));
        put(
            "spirits_spent",
            J::Map(COST_PARTS.iter().zip(t.spirit_spent).map(|(k, n)| ((*k).into(), J::Int(n))).collect()),
        );
        if viewer == Some(t.player) && st.pending.is_empty() {
            put("prices", prices(st));
        }
    }
    J::Map(out)
}

/// The open decision as `viewer` may see it (the observation's `pending`).
fn pending_view(st: &State, viewer: Option<u8>) -> J {
    let Some(pd) = st.pending.last() else { return J::Null };
    let mine = viewer == Some(pd.player);
    let description = registry::describe(st, pd).unwrap_or_else(|| pd.kind.replace('_', " "));
    let mut out: Vec<(Key, J)> = Vec::with_capacity(6);
    out.push(("kind".into(), J::Str(pd.kind.clone())));
    out.push(("player".into(), int(pd.player)));
    out.push(("description".into(), J::from(description)));
    if mine && !pd.private.is_empty() {
        out.push(("cards".into(), J::List(pd.private.iter().map(|&c| card_view(st, c)).collect())));
    }
    let copy_at = |key: &str| match get(&pd.data, key) {
        Some(J::Int(c)) => CopyId::try_from(*c).map_or(J::Null, |c| copy_view(st, c)),
        _ => J::Null,
    };
    let mut set = |k: &'static str, v: J| match out.iter_mut().find(|(key, _)| **key == *k) {
        Some(slot) => slot.1 = v,
        None => out.push((k.into(), v)),
    };
    if &*pd.kind == "sleeve" {
        // The advancement being sleeved was bought in public.
        set("advancement", copy_at("copy"));
    }
    if mine {
        // What a decision shows only its player (file 003: the leaders dealt to you,
        // Ranger Captain's vale, Snapjaw's advancement).
        if let Some(leaders) = get(&pd.data, "leaders") {
            set("leaders", leaders.clone());
        }
        let shows = get(&pd.data, "shows");
        if shows == Some(&J::Str("copy".into())) {
            set("advancement", copy_at("copy"));
        }
        if shows == Some(&J::Str("vale".into())) {
            let vale = match get(&pd.data, "looked_vale") {
                Some(J::Int(v)) => ValeId::try_from(*v).map_or(J::Null, |v| vale_view(st, v, false)),
                _ => J::Null,
            };
            set("vale", vale);
        }
    }
    J::Map(out)
}

/// One player's entry of the observation's `players`.
fn player_view(st: &State, p: u8, pl: &crate::state::Player, viewer: Option<u8>) -> J {
    let t = &st.turn;
    let own = Owned::of(st, pl);
    let mine = viewer == Some(p);
    let new: &[ValeId] = if t.player == p { &t.new_vales } else { &[] };
    let mut out: Vec<(Key, J)> = Vec::with_capacity(19);
    let mut put = |k: &'static str, v: J| out.push((k.into(), v));
    put("seat", int(p));
    put("deck_count", int(pl.deck.len() as i64));
    put("discard_count", int(pl.discard.len() as i64));
    put("field", own.views(pl.field.iter().copied()));
    put("on_deck", pl.on_deck.map_or(J::Null, |c| own.view(c)));
    put("vp_tokens", J::Int(pl.vp_tokens));
    put("curse_tokens", J::Int(pl.curse_tokens));
    put("mana_token_active", J::Bool(pl.mana_token_active));
    put("star", J::Bool(pl.star));
    put("vales", J::List(pl.vales.iter().map(|&v| vale_view(st, v, new.contains(&v))).collect()));
    put("decay", J::Int(net_decay(st, p)));
    put("owned", own.list(st, pl, mine));
    put("owned_count", int(own.cards.len() as i64));
    put("set_aside", own.views(pl.aside.iter().copied()));
    put("harvest_next", J::Bool(pl.harvest_next));
    if mine {
        let mut deck = pl.deck.clone();
        deck.sort_unstable();
        let mut discard = pl.discard.clone();
        discard.sort_unstable();
        put("deck", own.views(deck));
        put("discard", own.views(discard));
        put("known_top", J::ints(&pl.known_top));
        put("leaders_dealt", strs(pl.dealt_leaders.iter().map(|l| &**l)));
    }
    J::Map(out)
}

/// What seat `viewer` (None: a spectator) may know now (Python's `observe`; the schema is
/// in the Python module's docstring).
pub fn observe(st: &State, viewer: Option<u8>) -> J {
    let players = (0u8..).zip(&st.players).map(|(p, pl)| player_view(st, p, pl, viewer)).collect();
    let levels3 = |f: &dyn Fn(usize) -> J| J::Map((0..3).map(|l| ((l + 1).to_string().into(), f(l))).collect());
    let levels2 = |f: &dyn Fn(usize) -> J| J::Map((0..2).map(|l| ((l + 1).to_string().into(), f(l))).collect());
    let commons =
        levels3(&|l| J::List(st.commons[l].iter().map(|c| c.map_or(J::Null, |c| copy_view(st, c))).collect()));
    let vale_rows =
        levels2(&|l| J::List(st.vale_rows[l].iter().map(|v| v.map_or(J::Null, |v| vale_view(st, v, false))).collect()));
    let soil = J::Map(SLOTS.iter().zip(st.soil_left).map(|(s, n)| (s.name().into(), J::Int(n))).collect());
    let soil_cost = st.cat.copy_type(st.cat.soil_copy(Slot::Top)).cost;
    let mut out: Vec<(Key, J)> = Vec::with_capacity(26);
    let mut put = |k: &'static str, v: J| out.push((k.into(), v));
    put("viewer", opt_int(viewer));
    put("ruleset", J::from(st.ruleset.name));
    put("sets", strs(st.cat.sets.iter().map(|s| &**s)));
    put("round", J::Int(st.round));
    put("turn_number", J::Int(st.turn_number));
    put("phase", J::from(if st.over { "over" } else { st.turn.phase }));
    put("current_player", if st.over { J::Null } else { int(st.current) });
    put("acting_player", opt_int(acting_player(st)));
    put("first_player", int(st.first_player));
    put("vp_pool", J::Int(st.vp_pool));
    put("vp_reserve_taken", J::Int(st.vp_reserve_taken));
    put("end_triggered", st.end_triggered.as_ref().map_or(J::Null, |e| J::Str(e.clone())));
    put("seen_leaders", J::ints(&st.seen_leaders));
    put("over", J::Bool(st.over));
    put("commons", commons);
    put("fertile_soil", soil);
    put("fertile_soil_cost", J::Int(soil_cost));
    put("advancement_decks", levels3(&|l| int(st.adv_decks[l].len() as i64)));
    put("vale_rows", vale_rows);
    put("vale_decks", levels2(&|l| int(st.vale_decks[l].len() as i64)));
    put("players", J::List(players));
    put("turn", turn_view(st, viewer));
    put("pending", pending_view(st, viewer));
    if st.over {
        put("scores", J::List((0u8..).take(st.players.len()).map(|p| breakdown_view(&breakdown(st, p))).collect()));
        put("winners", J::ints(&winners(st)));
    }
    J::Map(out)
}

/// The event log from event `since` on, as `viewer` may read it: an event whose text is
/// private to another seat shows its public text, and one with no text for this seat is
/// left out (Python's `visible_log`). `since` counts as a Python slice start does: a
/// negative one counts from the end, and the indices then start at `since` itself (as
/// Python's `enumerate(st.events[since:], start=since)`).
pub fn visible_log(st: &State, viewer: Option<i64>, since: i64) -> J {
    let n = i64::try_from(st.events.len()).unwrap_or(i64::MAX);
    let start = if since < 0 { (n + since).max(0) } else { since.min(n) };
    let skip = usize::try_from(start).unwrap_or(0);
    let mut out = Vec::new();
    for (i, e) in (since..).zip(st.events.iter_from(skip)) {
        let text = match e.private_to {
            Some(p) if Some(i64::from(p)) != viewer => &e.public_text,
            _ => &e.text,
        };
        if !text.is_empty() {
            out.push(J::map([
                ("index", J::Int(i)),
                ("kind", J::from(&*e.kind)),
                ("player", opt_int(e.player)),
                ("text", J::from(text.as_str())),
            ]));
        }
    }
    J::List(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::testing::midgame;

    fn key<'a>(v: &'a J, k: &str) -> &'a J {
        match v {
            J::Map(kv) => kv.iter().find(|(key, _)| &**key == k).map(|(_, v)| v).unwrap_or(&J::Null),
            _ => &J::Null,
        }
    }

    fn ids_of(v: &J) -> Vec<i64> {
        match v {
            J::List(xs) => xs
                .iter()
                .map(|x| match key(x, "id") {
                    J::Int(i) => *i,
                    _ => -1,
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    #[test]
    fn only_the_viewer_sees_its_deck_and_discard_and_never_their_order() {
        let st = midgame();
        let obs = observe(&st, Some(0));
        let J::List(players) = key(&obs, "players") else { panic!("no players") };
        let mine = &players[0];
        let deck = ids_of(key(mine, "deck"));
        assert_eq!(deck.len(), st.players[0].deck.len());
        assert!(deck.windows(2).all(|w| w[0] < w[1]), "the deck is listed sorted: {deck:?}");
        assert_eq!(key(&players[1], "deck"), &J::Null, "another seat's deck is not listed");
        assert_eq!(key(&players[1], "discard"), &J::Null);
        let spectator = observe(&st, None);
        let J::List(players) = key(&spectator, "players") else { panic!("no players") };
        assert!(players.iter().all(|p| key(p, "deck") == &J::Null && key(p, "known_top") == &J::Null));
        assert_eq!(key(&spectator, "viewer"), &J::Null);
    }

    #[test]
    fn every_owned_card_is_listed_once_sorted() {
        let st = midgame();
        let obs = observe(&st, None);
        let J::List(players) = key(&obs, "players") else { panic!("no players") };
        for (p, entry) in players.iter().enumerate() {
            let owned = ids_of(key(entry, "owned"));
            let mut expected: Vec<i64> = crate::zones::owned_cards(&st, p as u8).into_iter().map(i64::from).collect();
            expected.sort_unstable();
            assert_eq!(owned, expected);
            assert_eq!(key(entry, "owned_count"), &J::Int(expected.len() as i64));
        }
    }

    #[test]
    fn a_decision_with_malformed_data_shows_nothing_and_does_not_panic() {
        let mut st = midgame();
        let data = vec![
            ("shows".into(), J::from("vale")),
            ("looked_vale".into(), J::Int(60_000)),
            ("copy".into(), J::from("not a copy id")),
        ];
        st.pending.push(crate::state::Pending { kind: "sleeve".into(), player: 0, data, private: vec![9999] });
        let obs = observe(&st, Some(0));
        let pd = key(&obs, "pending");
        assert_eq!(key(pd, "kind"), &J::from("sleeve"));
        assert_eq!(key(pd, "advancement"), &J::Null);
        assert_eq!(key(pd, "vale"), &J::Null);
        assert_eq!(key(pd, "cards"), &J::List(vec![J::Null]));
        // Other seats see neither the private cards nor what it shows its player.
        let other = observe(&st, Some(1));
        assert_eq!(key(key(&other, "pending"), "cards"), &J::Null);
    }

    #[test]
    fn a_private_log_text_shows_its_public_text_to_the_others() {
        let mut st = midgame();
        let before = st.events.len() as i64;
        crate::zones::log_private(&mut st, "ability", Some(1), "secret".into(), 1, "public".into(), Vec::new());
        crate::zones::log_private(&mut st, "ability", Some(1), "only mine".into(), 1, String::new(), Vec::new());
        let text_of = |viewer: Option<i64>| -> Vec<J> {
            let J::List(xs) = visible_log(&st, viewer, before) else { panic!("not a list") };
            xs.iter().map(|x| key(x, "text").clone()).collect()
        };
        assert_eq!(text_of(Some(1)), vec![J::from("secret"), J::from("only mine")]);
        assert_eq!(text_of(Some(0)), vec![J::from("public")]);
        assert_eq!(text_of(None), vec![J::from("public")]);
        // A negative start counts from the end, as a Python slice does.
        let J::List(last) = visible_log(&st, Some(1), -1) else { panic!("not a list") };
        assert_eq!(last.len(), 1);
        assert_eq!(key(&last[0], "index"), &J::Int(-1));
        let J::List(none) = visible_log(&st, Some(1), before + 5) else { panic!("not a list") };
        assert!(none.is_empty());
    }
}

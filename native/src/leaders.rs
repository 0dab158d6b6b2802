//! Twin of mysticvale/engine/leaders.py: leaders (file 003, Leader Cards): the set-up,
//! upgrading, every leader's abilities, and the hidden-information part (which leader cards
//! are hidden from a seat, and resampling them for a determinization).
//!
//! A leader is sleeved into one of its player's blank cards: the card's layers are the
//! parts of the leader's current side followed by any advancement Kojen and Khan sleeved
//! onto itself. No advancement may be sleeved on a leader otherwise (`sleeve::can_sleeve`
//! refuses a card with a leader part).
//!
//! Set-up (`new_game(..., leaders=True)`, here [`new_state_with_leaders`]): two leaders are
//! dealt to each player at random; each player, in turn order from the starting player,
//! keeps one (a `choose_leader` decision that only that player sees), which is sleeved into
//! a blank card; then every deck is shuffled and the starting fields are made (file 003:
//! the Leaders step comes after the vales are set up and before the fields).
//!
//! Upgrading is a Harvest action (`upgrade #7`, [`upgrade_actions`] and [`apply_upgrade`])
//! while the leader is in the field; it costs the upgrade cost in mana and one of the two
//! advancement buys. The card turns over in the Discard phase, after Discard abilities
//! (the `leader_upgrades` step): so during the Harvest it is bought the starting side's
//! ability and symbols still work and the upgraded side's do not (file 003).
#![forbid(unsafe_code)]

use std::sync::Arc;

use crate::actions::{Notation, Verb};
use crate::card_types::{Ability, Effect, Kind, Slot, Slots, Symbol, SLOTS};
use crate::catalogue::Catalogue;
use crate::effects::base::distinct_cards;
use crate::flow::{finish_game, start_turn};
use crate::harvest::{buy_advancement, mana_available, markets, Market, MAX_ADV_BUYS};
use crate::pyjson::{Key, J};
use crate::rng::{Rng, Seed, Stream};
use crate::rulesets::RuleSet;
use crate::setup::{deal_starting_fields, new_state};
use crate::state::{CardId, CopyId, Pending, State, Step};
use crate::zones::{
    ask, card_at, card_name, discard_card, gain_curse, get, int, log, log_private, mark_seen, owned_cards, reveal,
    schedule, shuffle_deck, stats, step, take_top, text, Data,
};

/// Leaders dealt to each player (file 003, Leader Setup).
pub const DEALT: usize = 2;

// -- reading a leader card ----------------------------------------------------------
/// The copy of a leader part (Python's `part_copy`): its type's first printed copy.
pub fn part_copy(st: &State, type_id: u16) -> Option<CopyId> {
    st.cat.printed_copies(type_id).first().copied()
}

/// (leader, upgraded side?) of a leader card, else `None` (Python's `leader_on`).
pub fn leader_on(st: &State, card: CardId) -> Option<(u16, bool)> {
    layers_of(st, card).iter().find_map(|&c| st.cat.leader_of(st.cat.copies.get(usize::from(c))?.type_id))
}

/// Leader cards player `p` holds that have never been face up (deck, discard pile, set
/// aside), in id order.
pub fn unseen_leaders(st: &State, p: u8) -> Vec<CardId> {
    if st.cat.copies.iter().enumerate().all(|(i, _)| !st.cat.is_leader_copy(i as u16)) {
        return Vec::new();
    }
    let pl = &st.players[usize::from(p)];
    let mut out: Vec<CardId> = [&pl.deck, &pl.discard, &pl.aside]
        .into_iter()
        .flatten()
        .copied()
        .filter(|c| !st.seen_leaders.contains(c) && st.cards[usize::from(*c)].iter().any(|&x| st.cat.is_leader_copy(x)))
        .collect();
    out.sort();
    out
}

/// For a determinization: give every leader whose identity `viewer` cannot know a leader
/// drawn at random from those it cannot rule out, starting side up, nothing sleeved.
pub fn resample_hidden_leaders(st: &mut State, viewer: Option<u8>, rng: &mut Rng, stream: &Stream) {
    if st.cat.leaders.is_empty() {
        return;
    }
    let n = st.players.len() as u8;
    let mut hidden: Vec<CardId> = Vec::new();
    for q in 0..n {
        if Some(q) != viewer {
            hidden.extend(unseen_leaders(st, q));
        }
    }
    let names = |i: u16| -> &str { &st.cat.leaders[usize::from(i)].name };
    let mut known: Vec<Box<str>> = match viewer {
        Some(v) => st.players[usize::from(v)].dealt_leaders.clone(),
        None => Vec::new(),
    };
    for q in 0..n {
        for c in owned_cards(st, q) {
            if !hidden.contains(&c) {
                if let Some((l, _)) = leader_on(st, c) {
                    known.push(names(l).into());
                }
            }
        }
    }
    let mut pool: Vec<u16> = (0u16..).zip(&st.cat.leaders).map(|(i, _)| i).collect();
    pool.sort_by(|&a, &b| names(a).cmp(names(b)));
    pool.retain(|&i| !known.iter().any(|k| **k == *names(i)));
    rng.shuffle(stream, &mut pool);
    for &c in &hidden {
        // The pool holds every leader the viewer cannot rule out, at least one per hidden card.
        let Some(l) = pool.pop() else { break };
        let parts: Vec<CopyId> =
            st.cat.leaders[usize::from(l)].start.iter().filter_map(|&t| part_copy(st, t)).collect();
        Arc::make_mut(&mut st.cards)[usize::from(c)] = parts.into();
    }
    // Pairs still to be chosen during setup, and what others were dealt.
    for q in 0..n {
        if Some(q) != viewer {
            st.players[usize::from(q)].dealt_leaders.clear();
        }
    }
    let cat = st.cat.clone();
    let pair = |pool: &mut Vec<u16>| -> J {
        let a = pool.pop().map_or(J::Null, |l| J::from(&*cat.leaders[usize::from(l)].name));
        let b = pool.pop().map_or(J::Null, |l| J::from(&*cat.leaders[usize::from(l)].name));
        J::List(vec![a, b])
    };
    let set_leaders = |data: &mut Vec<(Key, J)>, v: J| match data.iter_mut().find(|(k, _)| &**k == "leaders") {
        Some(slot) => slot.1 = v,
        None => data.push(("leaders".into(), v)),
    };
    for s in &mut st.steps {
        if &*s.kind == "leader_choose" && Some(s.player) != viewer {
            let v = pair(&mut pool);
            set_leaders(&mut s.data, v);
        }
    }
    for pd in &mut st.pending {
        if &*pd.kind == "choose_leader" && Some(pd.player) != viewer {
            let v = pair(&mut pool);
            set_leaders(&mut pd.data, v);
        }
    }
}

/// A card's layers (empty for an id the state does not hold).
fn layers_of(st: &State, card: CardId) -> &[CopyId] {
    st.cards.get(usize::from(card)).map_or(&[], |l| l)
}

/// Turn a leader card to its starting side (`upgraded = false`) or its upgraded side;
/// advancements sleeved on it stay, on top of the new side's parts (file 003, Kojen and
/// Khan: "you keep the advancement you put at the bottom of the card"). Python's `set_side`.
pub fn set_side(st: &mut State, card: CardId, upgraded: bool) {
    let Some((l, _)) = leader_on(st, card) else { return };
    let cat = st.cat.clone();
    let Some(ld) = cat.leaders.get(usize::from(l)) else { return };
    let parts = if upgraded { &ld.upgraded } else { &ld.start };
    let mut layers: Vec<CopyId> = parts.iter().filter_map(|&t| part_copy(st, t)).collect();
    layers.extend(layers_of(st, card).iter().copied().filter(|&c| !cat.is_leader_copy(c)));
    if let Some(slot) = Arc::make_mut(&mut st.cards).get_mut(usize::from(card)) {
        *slot = layers.into();
    }
}

/// The leaders' ids sorted by name (Python's `sorted(st.cat.leaders)`).
fn sorted_leaders(cat: &Catalogue) -> Vec<u16> {
    let mut ids: Vec<u16> = (0u16..).zip(&cat.leaders).map(|(i, _)| i).collect();
    ids.sort_by(|&a, &b| cat.leaders[usize::from(a)].name.cmp(&cat.leaders[usize::from(b)].name));
    ids
}

/// The leader of a name.
fn leader_named(cat: &Catalogue, name: &str) -> Option<u16> {
    (0u16..).zip(&cat.leaders).find(|(_, l)| &*l.name == name).map(|(i, _)| i)
}

/// The texts of a list at `key` of a step's or decision's data.
fn strs_at<'a>(d: &'a Data, key: &str) -> Vec<&'a str> {
    match get(d, key) {
        Some(J::List(xs)) => xs.iter().filter_map(|x| if let J::Str(s) = x { Some(&**s) } else { None }).collect(),
        _ => Vec::new(),
    }
}

/// The card ids of a list at `key` of a step's or decision's data.
fn cards_at(d: &Data, key: &str) -> Vec<CardId> {
    match get(d, key) {
        Some(J::List(xs)) => {
            xs.iter().filter_map(|x| if let J::Int(v) = x { CardId::try_from(*v).ok() } else { None }).collect()
        }
        _ => Vec::new(),
    }
}

/// A list of card ids as step data.
fn card_list(cards: &[CardId]) -> J {
    J::ints(cards)
}

/// The card an action names as its first argument (`keep #7`).
fn card_ref(action: &Notation) -> Option<CardId> {
    action.args.first().and_then(|a| a.strip_prefix('#')).and_then(|n| n.parse().ok())
}

/// `#7, #9`: card references as the decisions' texts list them.
fn refs(cards: &[CardId]) -> String {
    cards.iter().map(|c| format!("#{c}")).collect::<Vec<_>>().join(", ")
}

/// An action of one argument.
fn act(verb: Verb, arg: String) -> Notation {
    Notation { verb, args: vec![arg.into()] }
}

/// Step or decision data from its pairs.
fn data<const N: usize>(pairs: [(&'static str, J); N]) -> Data {
    pairs.into_iter().map(|(k, v)| (k.into(), v)).collect()
}

// -- set-up --------------------------------------------------------------------------

/// A game set up with leaders, ready for its leader choices (what Python's
/// `new_game(..., leaders=True)` does before its `run`): set up without the starting
/// fields, the `finish_turn` option, then [`begin_leader_setup`]. The caller runs the
/// scheduled work (`flow::run`), which opens the first `choose_leader`.
///
/// # Errors
/// Python's `ValueError` messages: a player count outside 2-4, a catalogue without
/// leaders or with too few, a player without a blank card.
pub fn new_state_with_leaders(
    cat: Arc<Catalogue>,
    ruleset: &'static RuleSet,
    players: u8,
    seed: Seed,
    finish_turn: bool,
) -> Result<State, String> {
    let mut st = new_state(cat, ruleset, players, seed, false)?;
    st.finish_turn = finish_turn;
    begin_leader_setup(&mut st)?;
    Ok(st)
}

/// Deal two leaders to each player and schedule their choices (before the first turn).
/// Python's `begin_leader_setup`.
///
/// # Errors
/// Python's messages for a catalogue without leaders (no Twilight Garden), too few
/// leaders for the players, and a player with no blank card to sleeve a leader into.
pub fn begin_leader_setup(st: &mut State) -> Result<(), String> {
    let cat = st.cat.clone();
    let mut names = sorted_leaders(&cat);
    if names.is_empty() {
        return Err(
            "leaders come with the Twilight Garden set: add 'twilight_garden' to sets to play with leaders".into()
        );
    }
    let n = st.players.len();
    if names.len() < DEALT * n {
        return Err(format!("{n} players need {} leaders; the catalogue has {}", DEALT * n, names.len()));
    }
    for (p, pl) in st.players.iter().enumerate() {
        if !pl.deck.iter().any(|&c| layers_of(st, c).is_empty()) {
            return Err(format!("player {} has no blank card to sleeve a leader into (file 003)", p + 1));
        }
    }
    st.rng.shuffle(&Stream::Leaders, &mut names);
    let first = usize::from(st.first_player);
    let mut work = Vec::with_capacity(n + 1);
    for (k, pair) in names.chunks(DEALT).take(n).enumerate() {
        let q = (first + k) % n;
        let dealt: Vec<Box<str>> = pair.iter().map(|&l| cat.leaders[usize::from(l)].name.clone()).collect();
        let list = J::List(dealt.iter().map(|s| J::Str(s.clone())).collect());
        if let Some(pl) = st.players.get_mut(q) {
            pl.dealt_leaders = dealt;
        }
        work.push(step("leader_choose", q as u8, data([("leaders", list)])));
    }
    log(st, "setup", None, format!("Each player is dealt {DEALT} leaders and keeps one."), Vec::new());
    work.push(step("leaders_ready", st.first_player, Vec::new()));
    schedule(st, work);
    Ok(())
}

/// `leader_choose`: the player chooses one of the two leaders dealt.
fn step_leader_choose(st: &mut State, s: &Step) {
    let leaders = get(&s.data, "leaders").cloned().unwrap_or(J::List(Vec::new()));
    ask(st, "choose_leader", s.player, Vec::new(), data([("leaders", leaders)]));
}

/// `choose <slug>` for each leader dealt, in the order dealt.
fn choose_legal(st: &State, pd: &Pending) -> Vec<Notation> {
    strs_at(&pd.data, "leaders")
        .into_iter()
        .filter_map(|name| leader_named(&st.cat, name))
        .map(|l| act(Verb::Choose, st.cat.leaders[usize::from(l)].slug.to_string()))
        .collect()
}

/// The chosen leader is sleeved into the player's blank card of the lowest id; only its
/// player learns which leader it is (file 003).
fn choose_apply(st: &mut State, pd: &Pending, action: &Notation) {
    let p = pd.player;
    let cat = st.cat.clone();
    let Some(slug) = action.args.first() else { return };
    let Some(l) = strs_at(&pd.data, "leaders")
        .into_iter()
        .filter_map(|name| leader_named(&cat, name))
        .find(|&l| cat.leaders[usize::from(l)].slug == *slug)
    else {
        return;
    };
    let Some(pl) = st.players.get(usize::from(p)) else { return };
    // Set-up made sure every player has a blank card (begin_leader_setup).
    let Some(card) = pl.deck.iter().copied().filter(|&c| layers_of(st, c).is_empty()).min() else { return };
    let ld = &cat.leaders[usize::from(l)];
    let parts: Vec<CopyId> = ld.start.iter().filter_map(|&t| part_copy(st, t)).collect();
    if let Some(slot) = Arc::make_mut(&mut st.cards).get_mut(usize::from(card)) {
        *slot = parts.into();
    }
    let text = format!("Player {} keeps the leader {} and sleeves it into {}.", p + 1, ld.name, card_name(st, card));
    let public = format!("Player {} keeps a leader and shuffles it into the deck.", p + 1);
    log_private(st, "leader", Some(p), text, p, public, Vec::new());
}

/// `leaders_ready`: every leader is chosen: shuffle the decks, make the starting fields,
/// begin the first turn.
fn step_leaders_ready(st: &mut State) {
    for p in 0..u8::try_from(st.players.len()).unwrap_or(u8::MAX) {
        shuffle_deck(st, p);
    }
    deal_starting_fields(st);
    start_turn(st, st.first_player);
}

// -- upgrading -----------------------------------------------------------------------

/// `upgrade #c` for each starting-side leader in the field the player can afford while an
/// advancement buy is left (file 003). Python's `upgrade_actions`, for the Harvest's legal
/// actions (after `trade`, before `finish`).
pub fn upgrade_actions(st: &State) -> Vec<Notation> {
    let t = &st.turn;
    if t.adv_buys >= MAX_ADV_BUYS {
        return Vec::new();
    }
    let Some(pl) = st.players.get(usize::from(t.player)) else { return Vec::new() };
    let mana = mana_available(st);
    let mut out = Vec::new();
    for &c in &pl.field {
        if let Some((l, false)) = leader_on(st, c) {
            if !t.upgrades.contains(&c) && st.cat.leaders.get(usize::from(l)).is_some_and(|ld| ld.upgrade_cost <= mana)
            {
                out.push(act(Verb::Upgrade, format!("#{c}")));
            }
        }
    }
    out
}

/// Player `p` pays a leader's upgrade cost and one advancement buy; the card turns over in
/// the Discard phase (file 003). Python's `apply_upgrade`, for the Harvest's `upgrade #c`.
pub fn apply_upgrade(st: &mut State, p: u8, card: CardId) {
    let Some((l, _)) = leader_on(st, card) else { return };
    let cat = st.cat.clone();
    let Some(ld) = cat.leaders.get(usize::from(l)) else { return };
    let cost = ld.upgrade_cost;
    let t = &mut st.turn;
    t.mana_spent += cost;
    t.adv_buys += 1;
    t.upgrades.push(card);
    let text = format!("Player {} pays {cost} mana to upgrade {}; it turns over in the Discard phase.", p + 1, ld.name);
    log(st, "upgrade", Some(p), text, Vec::new());
}

/// `leader_upgrades`: leaders upgraded in this Harvest turn to their upgraded side (after
/// Discard abilities, so a side works for the whole turn it was showing).
fn step_leader_upgrades(st: &mut State, s: &Step) {
    let cat = st.cat.clone();
    for c in std::mem::take(&mut st.turn.upgrades) {
        if let Some((l, false)) = leader_on(st, c) {
            set_side(st, c, true);
            let name = cat.leaders.get(usize::from(l)).map_or("", |ld| &ld.name);
            let text = format!("Player {}'s leader {name} turns to its upgraded side.", s.player + 1);
            log(st, "upgrade", Some(s.player), text, Vec::new());
        }
    }
}

// ==================================================================================
// Althena - Queen of the Fey
// ==================================================================================

/// VP tokens minus curse tokens.
fn token_points(st: &State, p: u8) -> i64 {
    st.players.get(usize::from(p)).map_or(0, |pl| pl.vp_tokens - pl.curse_tokens)
}

/// The shield VP of a player's vales.
fn vale_points(st: &State, p: u8) -> i64 {
    let Some(pl) = st.players.get(usize::from(p)) else { return 0 };
    pl.vales
        .iter()
        .filter_map(|&v| st.vale_types.get(usize::from(v)))
        .filter_map(|&t| st.cat.vales.get(usize::from(t)))
        .map(|vt| vt.end_vp)
        .sum()
}

/// Field cards other than Althena's, not kept yet, showing a Cursed Land.
fn althena_candidates(st: &State, p: u8, source: CardId) -> Vec<CardId> {
    let Some(pl) = st.players.get(usize::from(p)) else { return Vec::new() };
    let kept = &st.turn.kept;
    let cands: Vec<CardId> = pl
        .field
        .iter()
        .copied()
        .filter(|&c| c != source && !kept.contains(&c) && stats(st, c).has_cursed_land)
        .collect();
    distinct_cards(st, &cands)
}

/// If your token points (VP minus curse tokens) are 0 or less and your vales' shield VP
/// are 0 or less (upgraded: either of the two), this card stays in your field for your
/// next turn, with one other field card showing a Cursed Land if you have one (file 003).
fn althena(st: &mut State, p: u8, either: bool, d: &Data) {
    let a = token_points(st, p) <= 0;
    let b = vale_points(st, p) <= 0;
    if !((a && b) || (either && (a || b))) {
        return;
    }
    let card = card_at(d, "card");
    if !st.turn.kept.contains(&card) {
        st.turn.kept.push(card);
    }
    log(
        st,
        "ability",
        Some(p),
        format!("Player {}'s Althena stays in the field for the next turn.", p + 1),
        Vec::new(),
    );
    let choices = althena_candidates(st, p, card);
    match choices.as_slice() {
        [only] => keep(st, p, *only),
        [] => {}
        _ => ask(st, "althena_keep", p, Vec::new(), data([("source", J::Int(i64::from(card)))])),
    }
}

/// Another field card stays for the next turn (Althena).
fn keep(st: &mut State, p: u8, c: CardId) {
    st.turn.kept.push(c);
    let text = format!("Player {} also keeps {} in the field (Althena).", p + 1, card_name(st, c));
    log(st, "ability", Some(p), text, Vec::new());
}

// ==================================================================================
// Hectoro - The Hunter
// ==================================================================================

/// The opponent(s) with the most vales gain 2 curse tokens; the opponent(s) with the most
/// net VP tokens (VP minus curse tokens) gain 2 curse tokens; one player can get both
/// (file 003). Both are decided before either is paid, and "the most" needs at least one
/// vale / one net VP (our reading, docs/rules-decisions.md).
fn hectoro(st: &mut State, p: u8, n: i64) {
    let opp: Vec<u8> = (0..u8::try_from(st.players.len()).unwrap_or(u8::MAX)).filter(|&q| q != p).collect();
    let vales = |q: u8| st.players.get(usize::from(q)).map_or(0, |pl| pl.vales.len());
    let most_vales = opp.iter().map(|&q| vales(q)).max().unwrap_or(0);
    let most_net = opp.iter().map(|&q| token_points(st, q)).max().unwrap_or(0);
    let by_vales: Vec<u8> = opp.iter().copied().filter(|&q| most_vales > 0 && vales(q) == most_vales).collect();
    let by_net: Vec<u8> = opp.iter().copied().filter(|&q| most_net > 0 && token_points(st, q) == most_net).collect();
    for &q in &by_vales {
        gain_curse(st, q, n, "Hectoro: most vales");
    }
    for &q in &by_net {
        gain_curse(st, q, n, "Hectoro: most net VP tokens");
    }
    if by_vales.is_empty() && by_net.is_empty() {
        log(st, "ability", Some(p), format!("Player {}'s Hectoro finds no opponent to curse.", p + 1), Vec::new());
    }
}

/// Place the top 7 cards of your deck into your field (placed, not played), then reveal
/// an on-deck card; you cannot push or spoil any more. In Planting go on to the Harvest;
/// in Prep your turn ends and the next one begins with its Harvest (file 003).
fn hectoro_upgraded(st: &mut State, p: u8, count: i64) {
    let mut placed = Vec::new();
    for _ in 0..count.max(0) {
        let Some(c) = take_top(st, p) else { break };
        if let Some(pl) = st.players.get_mut(usize::from(p)) {
            pl.field.push(c);
        }
        mark_seen(st, c);
        placed.push(c);
    }
    let names: Vec<String> = placed.iter().map(|&c| card_name(st, c)).collect();
    let text =
        format!("Player {}'s Hectoro places {} card(s) into the field: {}.", p + 1, placed.len(), names.join(", "));
    log(st, "ability", Some(p), text, Vec::new());
    if st.players.get(usize::from(p)).is_some_and(|pl| pl.on_deck.is_none()) {
        reveal(st, p);
    }
    if st.turn.phase == "prep" {
        if let Some(pl) = st.players.get_mut(usize::from(p)) {
            pl.harvest_next = true;
        }
    } else if st.turn.player == p && st.turn.phase == "planting" {
        st.turn.phase = "harvest";
        schedule(st, [step("harvest_start", p, Vec::new())]);
    }
}

/// Discard phase, not optional: turn this leader back to its starting side (file 003,
/// Hectoro).
fn flip_back(st: &mut State, p: u8, d: &Data) {
    set_side(st, card_at(d, "card"), false);
    log(st, "ability", Some(p), format!("Player {}'s Hectoro turns back to his starting side.", p + 1), Vec::new());
}

// ==================================================================================
// Kojen and Khan
// ==================================================================================

/// Slots of this leader card's uncovered, coverable ability parts (Python's
/// `free_ability_slots`).
pub fn free_ability_slots(st: &State, card: CardId) -> Slots {
    let layers = layers_of(st, card);
    let mut out = Slots(0);
    for pos in stats(st, card).active_layers {
        let Some(&copy) = layers.get(usize::from(pos)) else { continue };
        let c = &st.cat.copies[usize::from(copy)];
        let t = st.cat.copy_type(copy);
        if t.kind == Kind::Leader && t.eclipse {
            out = Slots(out.0 | c.slots.0);
        }
    }
    out
}

/// (market, copy) of the commons' advancements that fill `slot` and only free slots.
fn kojen_options(st: &State, card: CardId, slot: Slot) -> Vec<(Market, CopyId)> {
    let free = free_ability_slots(st, card);
    if !free.contains(slot) {
        return Vec::new();
    }
    markets(st)
        .into_iter()
        .filter(|(_, c)| {
            let slots = st.cat.copies[usize::from(*c)].slots;
            slots.contains(slot) && slots.0 & !free.0 == 0
        })
        .collect()
}

/// The slot named in a decision's data (Python writes its name).
fn slot_named(name: &str) -> Slot {
    SLOTS.into_iter().find(|s| s.name() == name).unwrap_or(Slot::Bottom)
}

/// Choose any advancement of the commons that fills this ability's slot (regardless of
/// cost) and sleeve it onto this card, covering the ability; When Bought effects trigger;
/// it is free and not counted as a buy (file 003, Kojen and Khan).
fn kojen(st: &mut State, p: u8, slot: Slot, d: &Data) {
    let card = card_at(d, "card");
    if !kojen_options(st, card, slot).is_empty() {
        let d = data([("card", J::Int(i64::from(card))), ("slot", J::from(slot.name()))]);
        ask(st, "kojen_and_khan", p, Vec::new(), d);
    }
}

/// `buy <market>` for each advancement Kojen and Khan may take, then `skip`.
fn kojen_legal(st: &State, pd: &Pending) -> Vec<Notation> {
    let mut seen: Vec<Notation> = Vec::new();
    for (m, _) in kojen_options(st, card_at(&pd.data, "card"), slot_named(text(&pd.data, "slot"))) {
        let a = act(Verb::Buy, m.to_string());
        if !seen.contains(&a) {
            seen.push(a);
        }
    }
    seen.push(Notation { verb: Verb::Skip, args: Vec::new() });
    seen
}

/// The chosen advancement is taken free and sleeved onto the leader now (not in the
/// Discard phase); its When Bought abilities resolve.
fn kojen_apply(st: &mut State, pd: &Pending, action: &Notation) {
    if action.verb == Verb::Skip {
        return;
    }
    let (p, card) = (pd.player, card_at(&pd.data, "card"));
    let Some(market) = action.args.first() else { return };
    let options = kojen_options(st, card, slot_named(text(&pd.data, "slot")));
    let Some(&(market, copy)) = options.iter().rev().find(|(m, _)| m.to_string() == **market) else { return };
    buy_advancement(st, p, market, copy, None, 0, false);
    st.turn.purchases.pop(); // sleeved now, onto the leader, not in the Discard phase
    let mut layers = layers_of(st, card).to_vec();
    layers.push(copy);
    let top = i64::try_from(layers.len()).unwrap_or(i64::MAX) - 1;
    if let Some(slot) = Arc::make_mut(&mut st.cards).get_mut(usize::from(card)) {
        *slot = layers.into();
    }
    st.turn.new_layers.push([i64::from(card), top]);
    let text = format!("Player {} sleeves {} onto Kojen and Khan.", p + 1, st.cat.label(copy));
    log(st, "sleeve", Some(p), text, Vec::new());
}

// ==================================================================================
// Le Que - Corrupted Soul
// ==================================================================================

/// Cards in a player's field.
fn field_len(st: &State, p: u8) -> i64 {
    st.players.get(usize::from(p)).map_or(0, |pl| i64::try_from(pl.field.len()).unwrap_or(i64::MAX))
}

/// Player `p` wins the game at once, whatever the points (Le Que, file 003).
fn win(st: &mut State, p: u8) {
    st.winner_override = Some(vec![p]);
    let text = format!("Player {} has {} cards in the field and wins the game (Le Que).", p + 1, field_len(st, p));
    log(st, "win", Some(p), text, Vec::new());
    finish_game(st);
}

/// `take #c` for the cards one may still choose in the opponent's field (any opponent's
/// until the first is chosen).
fn le_que_legal(st: &State, pd: &Pending) -> Vec<Notation> {
    let q = int(&pd.data, "opponent");
    let chosen = cards_at(&pd.data, "chosen");
    let n = u8::try_from(st.players.len()).unwrap_or(u8::MAX);
    let seats: Vec<u8> = match u8::try_from(q) {
        Ok(q) => vec![q],
        Err(_) => (0..n).filter(|&x| x != pd.player).collect(),
    };
    let mut out = Vec::new();
    for s in seats {
        let Some(pl) = st.players.get(usize::from(s)) else { continue };
        let left: Vec<CardId> = pl.field.iter().copied().filter(|c| !chosen.contains(c)).collect();
        out.extend(distinct_cards(st, &left).into_iter().map(|c| act(Verb::Take, format!("#{c}"))));
    }
    out
}

/// Choose 4 cards in one opponent's field (all, if fewer); that opponent then chooses one
/// of them to give (file 003).
fn le_que_pick_apply(st: &mut State, pd: &Pending, action: &Notation) {
    let p = pd.player;
    let Some(c) = card_ref(action) else { return };
    let Some(q) = st.players.iter().position(|pl| pl.field.contains(&c)) else { return };
    let q = u8::try_from(q).unwrap_or(u8::MAX);
    let count = int(&pd.data, "count");
    let mut chosen = cards_at(&pd.data, "chosen");
    chosen.push(c);
    let field = st.players.get(usize::from(q)).map_or(&[][..], |pl| &pl.field);
    let field_n = i64::try_from(field.len()).unwrap_or(i64::MAX);
    let want = count.min(field_n);
    if field_n <= count {
        chosen = field.to_vec();
    }
    if (chosen.len() as i64) < want {
        let d = data([("chosen", card_list(&chosen)), ("opponent", J::Int(i64::from(q))), ("count", J::Int(count))]);
        ask(st, "le_que_pick", p, Vec::new(), d);
        return;
    }
    let names: Vec<String> = chosen.iter().map(|&x| card_name(st, x)).collect();
    let text = format!("Player {} chooses {} in player {}'s field (Le Que).", p + 1, names.join(", "), q + 1);
    log(st, "ability", Some(p), text, Vec::new());
    if distinct_cards(st, &chosen).len() == 1 {
        if let Some(&only) = chosen.first() {
            le_que_give(st, q, p, only);
        }
    } else {
        let d = data([("chosen", card_list(&chosen)), ("to", J::Int(i64::from(p)))]);
        ask(st, "le_que_give", q, Vec::new(), d);
    }
}

/// The card goes from `q`'s field on top of `to`'s discard pile and is `to`'s from now on.
fn le_que_give(st: &mut State, q: u8, to: u8, c: CardId) {
    if usize::from(to) >= st.players.len() {
        return; // a decision naming no player (a corrupt save): nothing moves
    }
    if let Some(pl) = st.players.get_mut(usize::from(q)) {
        if let Some(i) = pl.field.iter().position(|&x| x == c) {
            pl.field.remove(i);
        }
    }
    discard_card(st, to, c);
    let text = format!(
        "Player {} gives {} to player {}, on top of the discard pile (Le Que).",
        q + 1,
        card_name(st, c),
        to + 1
    );
    log(st, "ability", Some(q), text, Vec::new());
}

/// Pay 5 mana to turn this leader back to its starting side; with 20 or more cards in
/// your field then, you win at once (file 003). The starting side's Harvest abilities are
/// not usable in this Harvest (our reading).
fn le_que_back(st: &mut State, p: u8, cost: i64, cards: i64, d: &Data) {
    let card = card_at(d, "card");
    st.turn.mana_spent += cost;
    let before = stats(st, card);
    set_side(st, card, false);
    // The mana and spirit symbols the card already gave this Harvest stay given, and the
    // new side's do not count until the next Harvest (as for an upgrade).
    let after = stats(st, card);
    st.turn.mana_bonus += before.get(Symbol::Mana) - after.get(Symbol::Mana);
    for (i, sp) in [Symbol::Animal, Symbol::Forest, Symbol::Sky, Symbol::Wild].into_iter().enumerate() {
        st.turn.spirit_bonus[i] += before.get(sp) - after.get(sp);
    }
    let n_parts =
        leader_on(st, card).and_then(|(l, _)| st.cat.leaders.get(usize::from(l))).map_or(0, |ld| ld.start.len());
    for pos in 0..n_parts {
        st.turn.new_layers.push([i64::from(card), i64::try_from(pos).unwrap_or(i64::MAX)]);
    }
    let text = format!("Player {} pays {cost} mana to turn Le Que back to the starting side.", p + 1);
    log(st, "ability", Some(p), text, Vec::new());
    if field_len(st, p) >= cards {
        win(st, p);
    }
}

// -- the leaders' rules: steps, decisions and effects (see `registry`) -----------------

/// The step kinds this module runs.
pub const STEPS: &[&str] = &["leader_choose", "leader_upgrades", "leaders_ready"];
/// The decision kinds this module owns.
pub const DECISIONS: &[&str] = &["althena_keep", "choose_leader", "kojen_and_khan", "le_que_give", "le_que_pick"];

/// Run a step of one of [`STEPS`] (false: not this module's kind).
pub fn run_step(st: &mut State, s: &Step) -> bool {
    match &*s.kind {
        "leader_choose" => step_leader_choose(st, s),
        "leaders_ready" => step_leaders_ready(st),
        "leader_upgrades" => step_leader_upgrades(st, s),
        _ => return false,
    }
    true
}

/// The legal actions of one of [`DECISIONS`], in Python's order.
pub fn legal(st: &State, pd: &Pending) -> Option<Vec<Notation>> {
    Some(match &*pd.kind {
        "choose_leader" => choose_legal(st, pd),
        "althena_keep" => althena_candidates(st, pd.player, card_at(&pd.data, "source"))
            .into_iter()
            .map(|c| act(Verb::Keep, format!("#{c}")))
            .collect(),
        "kojen_and_khan" => kojen_legal(st, pd),
        "le_que_pick" => le_que_legal(st, pd),
        "le_que_give" => distinct_cards(st, &cards_at(&pd.data, "chosen"))
            .into_iter()
            .map(|c| act(Verb::Give, format!("#{c}")))
            .collect(),
        _ => return None,
    })
}

/// Apply a legal action to one of [`DECISIONS`] (already popped); the decision back when it
/// is not this module's.
pub fn apply(st: &mut State, pd: Pending, action: &Notation) -> Option<Pending> {
    match &*pd.kind {
        "choose_leader" => choose_apply(st, &pd, action),
        "althena_keep" => {
            if let Some(c) = card_ref(action) {
                keep(st, pd.player, c);
            }
        }
        "kojen_and_khan" => kojen_apply(st, &pd, action),
        "le_que_pick" => le_que_pick_apply(st, &pd, action),
        "le_que_give" => {
            if let Some(c) = card_ref(action) {
                let to = u8::try_from(int(&pd.data, "to")).unwrap_or(u8::MAX);
                le_que_give(st, pd.player, to, c);
            }
        }
        _ => return Some(pd),
    }
    None
}

/// What other seats read while one of [`DECISIONS`] is open.
pub fn describe(_st: &State, pd: &Pending) -> Option<String> {
    Some(match &*pd.kind {
        "choose_leader" => format!("player {} is choosing a leader", pd.player + 1),
        "althena_keep" => "choosing a Cursed Land card to keep (Althena)".into(),
        "kojen_and_khan" => format!("choosing a free {} advancement for Kojen and Khan", text(&pd.data, "slot")),
        "le_que_pick" => {
            let chosen = cards_at(&pd.data, "chosen");
            let list = if chosen.is_empty() { String::new() } else { format!(": {}", refs(&chosen)) };
            format!("choosing cards in an opponent's field (Le Que){list}")
        }
        "le_que_give" => format!(
            "player {} chooses which of {} to give to player {} (Le Que)",
            pd.player + 1,
            refs(&cards_at(&pd.data, "chosen")),
            int(&pd.data, "to") + 1
        ),
        _ => return None,
    })
}

/// Resolve an ability whose effect is a leader's (false: not a leader's effect).
pub fn resolve(st: &mut State, p: u8, ab: &Ability, d: &Data) -> bool {
    match &ab.effect {
        Effect::KeepInFieldWhenPointless { either } => althena(st, p, either.unwrap_or(false), d),
        Effect::CurseLeadingOpponents { curse } => hectoro(st, p, curse.unwrap_or(2)),
        Effect::PlaceTopCardsEndPlanting { count } => hectoro_upgraded(st, p, count.unwrap_or(7)),
        Effect::FlipToStartingSide {} => flip_back(st, p, d),
        Effect::SleeveFreeAdvancementHere { slot } => kojen(st, p, slot.unwrap_or(Slot::Bottom), d),
        Effect::WinWithFieldCards { cards } => {
            // With 20 or more cards in your field, you win the game at once, whatever the
            // points (file 003).
            if field_len(st, p) >= cards.unwrap_or(20) {
                win(st, p);
            }
        }
        Effect::TakeCardFromOpponentField { cards } => {
            // Choose 4 cards in one opponent's field (all, if fewer); that opponent chooses
            // one of them, which goes on top of your discard pile and is yours from now on
            // (file 003).
            let d = data([
                ("chosen", J::List(Vec::new())),
                ("opponent", J::Int(-1)),
                ("count", J::Int(cards.unwrap_or(4))),
            ]);
            ask(st, "le_que_pick", p, Vec::new(), d);
        }
        Effect::PayToFlipBackAndWin { cost, cards } => le_que_back(st, p, cost.unwrap_or(5), cards.unwrap_or(20), d),
        _ => return false,
    }
    true
}

/// Python's `usable` check for a leader's effect (`None`: no check, always usable).
pub fn usable(st: &State, p: u8, ab: &Ability, d: &Data) -> Option<bool> {
    Some(match &ab.effect {
        Effect::SleeveFreeAdvancementHere { slot } => {
            !kojen_options(st, card_at(d, "card"), slot.unwrap_or(Slot::Bottom)).is_empty()
        }
        Effect::WinWithFieldCards { cards } => field_len(st, p) >= cards.unwrap_or(20),
        Effect::TakeCardFromOpponentField { .. } => {
            st.players.iter().enumerate().any(|(q, pl)| q != usize::from(p) && !pl.field.is_empty())
        }
        Effect::PayToFlipBackAndWin { cost, .. } => mana_available(st) >= cost.unwrap_or(5),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::get_ruleset;
    use crate::zones::field_sum;

    fn game(players: u8) -> State {
        let path = format!("{}/tests/fixtures/catalogue_base+twilight_garden.json", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let cat = Catalogue::shared(&text, "base+twilight_garden").unwrap_or_else(|e| panic!("{e}"));
        let rs = get_ruleset("yucata").unwrap_or_else(|e| panic!("{e}"));
        let seed = Seed::parse("11").unwrap_or_else(|| panic!("a seed"));
        new_state_with_leaders(cat, rs, players, seed, false).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Choose a leader for player 0 by its name; the card it went into.
    fn sleeve_leader(st: &mut State, name: &str) -> CardId {
        let l = leader_named(&st.cat, name).unwrap_or_else(|| panic!("no leader {name}"));
        let cat = st.cat.clone();
        let card = st.players[0].deck.iter().copied().filter(|&c| layers_of(st, c).is_empty()).min().unwrap_or(0);
        let parts: Vec<CopyId> = cat.leaders[usize::from(l)].start.iter().filter_map(|&t| part_copy(st, t)).collect();
        Arc::make_mut(&mut st.cards)[usize::from(card)] = parts.into();
        card
    }

    #[test]
    fn each_player_is_dealt_two_different_leaders_to_choose_from() {
        let st = game(4);
        let mut dealt: Vec<Box<str>> = st.players.iter().flat_map(|p| p.dealt_leaders.clone()).collect();
        assert!(st.players.iter().all(|p| p.dealt_leaders.len() == DEALT));
        dealt.sort();
        dealt.dedup();
        assert_eq!(dealt.len(), 8, "four players share out all eight leaders");
        // The choices run in turn order from the starting player, then leaders_ready.
        let kinds: Vec<(&str, u8)> = st.steps.iter().rev().map(|s| (&*s.kind, s.player)).collect();
        let first = st.first_player;
        let want: Vec<(&str, u8)> = (0..4u8)
            .map(|i| ("leader_choose", (first + i) % 4))
            .chain(std::iter::once(("leaders_ready", first)))
            .collect();
        assert_eq!(kinds, want);
    }

    #[test]
    fn a_player_without_a_blank_card_cannot_be_given_a_leader() {
        let mut st = game(2);
        st.steps.clear();
        let soil = st.cards.iter().find(|l| !l.is_empty()).cloned().unwrap_or_else(|| Arc::from(Vec::new()));
        for c in st.players[1].deck.clone() {
            if layers_of(&st, c).is_empty() {
                Arc::make_mut(&mut st.cards)[usize::from(c)] = soil.clone();
            }
        }
        let rng = st.rng.clone();
        let err = begin_leader_setup(&mut st).err();
        assert_eq!(err.as_deref(), Some("player 2 has no blank card to sleeve a leader into (file 003)"));
        assert!(st.steps.is_empty(), "nothing is scheduled");
        assert_eq!(st.rng.sorted_states(), rng.sorted_states(), "no leader was shuffled");
    }

    #[test]
    fn turning_a_leader_keeps_what_kojen_and_khan_sleeved_on_it() {
        let mut st = game(2);
        let card = sleeve_leader(&mut st, "Kojen and Khan");
        let extra = st.cat.soil_copy(Slot::Bottom);
        let mut layers = layers_of(&st, card).to_vec();
        layers.push(extra);
        Arc::make_mut(&mut st.cards)[usize::from(card)] = layers.into();
        set_side(&mut st, card, true);
        assert_eq!(leader_on(&st, card).map(|(_, up)| up), Some(true));
        assert_eq!(layers_of(&st, card).last(), Some(&extra), "the advancement stays on top");
        set_side(&mut st, card, false);
        assert_eq!(leader_on(&st, card).map(|(_, up)| up), Some(false));
        assert_eq!(layers_of(&st, card).iter().filter(|&&c| c == extra).count(), 1);
    }

    #[test]
    fn a_leader_in_the_field_may_be_upgraded_once_while_a_buy_and_the_mana_are_left() {
        let mut st = game(2);
        let card = sleeve_leader(&mut st, "Hectoro");
        st.turn = crate::state::Turn::new(0);
        st.turn.phase = "harvest";
        st.players[0].field = vec![card];
        let cost = st.cat.leaders[usize::from(leader_named(&st.cat, "Hectoro").unwrap_or(0))].upgrade_cost;
        st.turn.mana_bonus = cost - field_sum(&st, 0, Symbol::Mana) - 1;
        assert!(upgrade_actions(&st).is_empty(), "one mana short");
        st.turn.mana_bonus += 1;
        let up = act(Verb::Upgrade, format!("#{card}"));
        assert_eq!(upgrade_actions(&st), vec![up.clone()]);
        st.turn.adv_buys = MAX_ADV_BUYS;
        assert!(upgrade_actions(&st).is_empty(), "no advancement buy left");
        st.turn.adv_buys = 1;
        apply_upgrade(&mut st, 0, card);
        assert_eq!((st.turn.adv_buys, st.turn.mana_spent, st.turn.upgrades.clone()), (2, cost, vec![card]));
        st.turn.adv_buys = 0;
        assert!(upgrade_actions(&st).is_empty(), "upgraded this turn already");
        // It turns over in the Discard phase.
        assert_eq!(leader_on(&st, card).map(|(_, up)| up), Some(false));
        step_leader_upgrades(&mut st, &step("leader_upgrades", 0, Vec::new()));
        assert_eq!(leader_on(&st, card).map(|(_, up)| up), Some(true));
        assert!(st.turn.upgrades.is_empty());
    }

    #[test]
    fn identical_cards_are_one_choice() {
        let st = game(2);
        let deck = st.players[0].deck.clone();
        let blanks: Vec<CardId> = deck.iter().copied().filter(|&c| layers_of(&st, c).is_empty()).collect();
        let choices = distinct_cards(&st, &deck);
        assert!(choices.contains(blanks.iter().min().unwrap_or(&0)));
        assert_eq!(choices.iter().filter(|&&c| layers_of(&st, c).is_empty()).count(), 1);
        let mut sorted = choices.clone();
        sorted.sort_unstable();
        assert_eq!(choices, sorted);
    }

    #[test]
    fn the_decisions_read_as_pythons_describe_texts() {
        // The texts Python's DECISIONS[kind].describe gives for the same decisions.
        let st = game(3);
        let pd = |kind: &str, player: u8, d: Data| Pending { kind: kind.into(), player, data: d, private: Vec::new() };
        let cases = [
            (
                pd("choose_leader", 2, data([("leaders", J::List(vec!["Althena".into(), "Le Que".into()]))])),
                "player 3 is choosing a leader",
            ),
            (pd("althena_keep", 0, data([("source", J::Int(4))])), "choosing a Cursed Land card to keep (Althena)"),
            (
                pd("kojen_and_khan", 1, data([("card", J::Int(5)), ("slot", "bottom".into())])),
                "choosing a free bottom advancement for Kojen and Khan",
            ),
            (
                pd(
                    "le_que_pick",
                    0,
                    data([("chosen", J::List(Vec::new())), ("opponent", J::Int(-1)), ("count", J::Int(4))]),
                ),
                "choosing cards in an opponent's field (Le Que)",
            ),
            (
                pd(
                    "le_que_pick",
                    0,
                    data([("chosen", card_list(&[31, 7])), ("opponent", J::Int(1)), ("count", J::Int(4))]),
                ),
                "choosing cards in an opponent's field (Le Que): #31, #7",
            ),
            (
                pd("le_que_give", 1, data([("chosen", card_list(&[31, 7, 9])), ("to", J::Int(2))])),
                "player 2 chooses which of #31, #7, #9 to give to player 3 (Le Que)",
            ),
        ];
        for (pending, want) in cases {
            assert_eq!(describe(&st, &pending).as_deref(), Some(want));
        }
        assert_eq!(describe(&st, &pd("order", 0, Vec::new())), None, "not a leaders' decision");
    }
}

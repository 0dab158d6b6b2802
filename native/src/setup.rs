//! Twin of mysticvale/engine/setup.py: setting up a game (file 000, Setup; file 003, Quick
//! Reference).
#![forbid(unsafe_code)]

use std::sync::Arc;

use crate::card_types::{Kind, SLOTS};
use crate::catalogue::Catalogue;
use crate::chain::Chain;
use crate::rng::{Rng, Seed, Stream};
use crate::rulesets::RuleSet;
use crate::state::{CardId, Player, State, Turn};
use crate::zones::{log, reveal, stats};

/// Level-1 advancements counted out per player count (2, 3, 4 players).
pub const LEVEL1_DECK: [usize; 3] = [12, 15, 18];
/// VP tokens in the pool per player count (2, 3, 4 players).
pub const VP_POOL: [i64; 3] = [23, 28, 33];
/// Face-up advancements per level.
pub const COMMONS_PER_LEVEL: usize = 3;
/// Face-up vales per level.
pub const VALES_PER_LEVEL: usize = 4;
/// Cursed Lands in a starting field; a third is on deck.
pub const FIELD_CURSED_LANDS: i64 = 2;

/// A game set up and ready for its first turn (Python's `new_state`). With
/// `deal_fields = false` the starting fields are left for later (leaders first, file 003).
///
/// # Errors
/// Python's message for a player count outside 2-4.
pub fn new_state(
    cat: Arc<Catalogue>,
    ruleset: &'static RuleSet,
    players: u8,
    seed: Seed,
    deal_fields: bool,
) -> Result<State, String> {
    if !(2..=4).contains(&players) {
        return Err(format!("Mystic Vale is for 2 to 4 players, not {players}"));
    }
    let n = usize::from(players - 2);
    let mut rng = Rng::new(seed);
    let mut cards: Vec<Arc<[u16]>> = Vec::new();
    let mut owner = Vec::new();
    let mut pls = Vec::with_capacity(usize::from(players));
    // 1. Player decks: 9 Cursed Land, 3 Fertile Soil, 8 blank, shuffled. A starting card
    // whose name is an advancement type shows that type's first printed copy.
    for p in 0..players {
        let mut deck: Vec<CardId> = Vec::new();
        for (name, count) in &cat.starting {
            let layers: Arc<[u16]> = match cat.type_id(name).and_then(|t| cat.printed_copies(t).first()) {
                Some(&copy) => Arc::new([copy]),
                None => Arc::new([]),
            };
            for _ in 0..*count {
                let id = CardId::try_from(cards.len()).map_err(|_| "more cards than the native core holds")?;
                deck.push(id);
                cards.push(layers.clone());
                owner.push(p);
            }
        }
        rng.shuffle(&Stream::Deck(p), &mut deck);
        pls.push(Player { deck, ..Player::default() });
    }
    // 2. The commons: level 1 counted out by player count; all of levels 2 and 3.
    let mut adv_decks: [Vec<u16>; 3] = Default::default();
    for level in 1..=3u8 {
        let mut d = cat.supply_copies(level).to_vec();
        rng.shuffle(&Stream::Adv(level), &mut d);
        if level == 1 {
            let keep = d.len().min(LEVEL1_DECK[n]);
            d.drain(..d.len() - keep);
        }
        adv_decks[usize::from(level - 1)] = d;
    }
    let mut commons = [[None; COMMONS_PER_LEVEL]; 3];
    for (row, deck) in commons.iter_mut().zip(adv_decks.iter_mut()) {
        for slot in row.iter_mut() {
            *slot = deck.pop();
        }
    }
    let mut soil_left = [0i64; 3];
    if let Some(soil) = (0u16..).zip(&cat.types).find(|(_, t)| t.kind == Kind::FertileSoil).map(|(i, _)| i) {
        for (k, slot) in SLOTS.into_iter().enumerate() {
            soil_left[k] =
                cat.printed_copies(soil).iter().filter(|&&c| cat.copies[usize::from(c)].slots.contains(slot)).count()
                    as i64;
        }
    }
    // 3. Vale cards: both decks shuffled, four face up from each.
    let mut vale_types: Vec<u16> = Vec::new();
    let mut vale_decks: [Vec<u16>; 2] = Default::default();
    for level in 1..=2u8 {
        let mut ids = Vec::new();
        for ti in cat.supply_vales(level) {
            ids.push(u16::try_from(vale_types.len()).map_err(|_| "more vales than the native core holds")?);
            vale_types.push(ti);
        }
        rng.shuffle(&Stream::Vale(level), &mut ids);
        vale_decks[usize::from(level - 1)] = ids;
    }
    let mut vale_rows = [[None; VALES_PER_LEVEL]; 2];
    for (row, deck) in vale_rows.iter_mut().zip(vale_decks.iter_mut()) {
        for slot in row.iter_mut() {
            *slot = deck.pop();
        }
    }
    let mut st = State {
        cat,
        ruleset,
        rng,
        cards: Arc::new(cards),
        owner: Arc::new(owner),
        players: pls,
        adv_decks,
        commons,
        soil_left,
        vale_types: Arc::new(vale_types),
        vale_decks,
        vale_rows,
        vp_pool: VP_POOL[n],
        vp_reserve_taken: 0,
        curse_supply_taken: 0,
        first_player: 0,
        current: 0,
        round: 1,
        turn_number: 1,
        turn: Turn::new(0),
        steps: Vec::new(),
        pending: Vec::new(),
        end_triggered: None,
        over: false,
        winner_override: None,
        extra_turns: Vec::new(),
        seen_leaders: Vec::new(),
        finish_turn: false,
        stats_memo: Arc::default(),
        events: Chain::new(),
        history: Chain::new(),
    };
    // 6. Mana tokens dealt at random, spent side up; the star token's owner starts.
    let first = st.rng.below(&Stream::Setup, u64::from(players)) as u8;
    st.first_player = first;
    st.players[usize::from(first)].star = true;
    if deal_fields {
        deal_starting_fields(&mut st);
    }
    st.events.clear();
    st.current = first;
    st.turn = Turn::new(first);
    let sets: Vec<&str> = st.cat.sets.iter().map(|s| &**s).collect();
    let text = format!(
        "A {players}-player game begins ({} rules, sets: {}). Player {} has the star token and starts.",
        st.ruleset.name,
        sets.join(", "),
        first + 1
    );
    log(&mut st, "setup", None, text, Vec::new());
    Ok(st)
}

/// Setup Fields (file 000, step 5): turn over the on-deck card, place it in the field and turn
/// over a new one, "until you have two Cursed Lands in your field and a third one on-deck".
/// A deck with fewer Cursed Lands (a custom catalogue) is dealt out until it is empty.
pub fn deal_starting_fields(st: &mut State) {
    let players = u8::try_from(st.players.len()).unwrap_or(u8::MAX);
    for p in 0..players {
        reveal(st, p);
        let mut in_field = 0i64;
        while let Some(card) = st.players[usize::from(p)].on_deck {
            let cursed = stats(st, card).has_cursed_land;
            if in_field >= FIELD_CURSED_LANDS && cursed {
                break; // two in the field and a third on deck
            }
            let pl = &mut st.players[usize::from(p)];
            pl.field.push(card);
            in_field += i64::from(cursed);
            pl.on_deck = None;
            reveal(st, p);
        }
    }
}

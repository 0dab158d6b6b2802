//! Twin of mysticvale/engine/state.py: the game state, plain data that clones as one copy
//! (no shared mutable parts) and serializes exactly.
//!
//! Cards are identified by an integer id (`cards[id]` is the card's layers, the advancement
//! copies sleeved on it). Zones hold card ids; a deck's top card is the *last* element, and
//! so is the top of a discard pile and of each supply deck.
#![forbid(unsafe_code)]

use std::borrow::Cow;
use std::sync::Arc;

use crate::catalogue::Catalogue;
use crate::chain::Chain;
use crate::pyjson::{Key, J};
use crate::rng::Rng;
use crate::rulesets::RuleSet;
use crate::sleeve::SleeveStats;

/// A card id.
pub type CardId = u16;
/// An advancement copy id (an index of [`Catalogue::copies`]).
pub type CopyId = u16;
/// Each card's layers with the stats worked out from them ([`State::stats_memo`]).
pub type StatsMemo = Arc<Vec<(Arc<[CopyId]>, Arc<SleeveStats>)>>;
/// A vale card id (an index of [`State::vale_types`]).
pub type ValeId = u16;

/// Every kind of rules step the Python engine registers (`registry.STEPS`), sorted; a save
/// naming another is corrupt.
pub const STEP_KINDS: [&str; 23] = [
    "ability",
    "deepwood_ask",
    "discard_abilities",
    "discard_field",
    "discard_start",
    "end_turn",
    "finish_turn",
    "harvest_end",
    "harvest_start",
    "leader_choose",
    "leader_upgrades",
    "leaders_ready",
    "prep_restart",
    "prep_start",
    "prep_step",
    "queue",
    "replenish",
    "reveal",
    "reveal_pause",
    "sleeve_next",
    "spoil",
    "spoil_check",
    "when_played",
];

/// Every kind of pending decision the Python engine registers (`registry.DECISIONS`), sorted.
pub const DECISION_KINDS: [&str; 30] = [
    "althena_keep",
    "choose_leader",
    "deepwood_veteran",
    "discard_field",
    "echoing_waterfalls",
    "finish_turn",
    "flame_geysers",
    "griffin_claim",
    "griffin_give",
    "keep_field_card",
    "keep_in_field",
    "kojen_and_khan",
    "le_que_give",
    "le_que_pick",
    "look_discard_any",
    "look_top",
    "look_top_n",
    "lore_keeper",
    "manadew_target",
    "order",
    "order_top",
    "prep_stop",
    "ranger_captain",
    "reveal_next",
    "rockspine_zenith",
    "search_deck",
    "search_deck_n",
    "sleeve",
    "snapjaw",
    "spoil_guard",
];

/// The phases of a turn, in Python's `PHASES` order.
pub const PHASES: [&str; 5] = ["planting", "harvest", "discard", "prep", "over"];

/// Everything one seat owns (Python's `Player`; see its field comments).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Player {
    /// The deck, top last.
    pub deck: Vec<CardId>,
    /// The on-deck card.
    pub on_deck: Option<CardId>,
    /// The field.
    pub field: Vec<CardId>,
    /// The discard pile, top last.
    pub discard: Vec<CardId>,
    /// Vale ids, in the order bought.
    pub vales: Vec<ValeId>,
    /// VP tokens.
    pub vp_tokens: i64,
    /// Curse tokens (Twilight Garden).
    pub curse_tokens: i64,
    /// Is the mana token on its active side?
    pub mana_token_active: bool,
    /// Does this player hold the star token?
    pub star: bool,
    /// Cards on top of the deck whose order this player knows (top last).
    pub known_top: Vec<CardId>,
    /// Spoil guards used since the last Prep phase began.
    pub guards_used: Vec<Box<str>>,
    /// Cards whose non-Cursed-Land decay Aether Tree cancelled, until the next Prep phase.
    pub aether_cards: Vec<CardId>,
    /// Vale ids removed from the game.
    pub removed_vales: Vec<ValeId>,
    /// Cards set aside while an ability resolves.
    pub aside: Vec<CardId>,
    /// The next turn begins with the Harvest phase (Hectoro).
    pub harvest_next: bool,
    /// The two leaders dealt at setup.
    pub dealt_leaders: Vec<Box<str>>,
    /// Cards taken out of the deck unseen by the others, until next face up.
    pub taken_unseen: Vec<CardId>,
}

impl Player {
    /// Every card the seat owns, wherever it is: deck, field, discard, set aside, on deck, in
    /// that order (Python's `owned_cards`).
    pub fn owned(&self) -> Vec<CardId> {
        let mut ids: Vec<CardId> = Vec::with_capacity(self.deck.len() + self.field.len() + self.discard.len() + 2);
        ids.extend(&self.deck);
        ids.extend(&self.field);
        ids.extend(&self.discard);
        ids.extend(&self.aside);
        ids.extend(self.on_deck);
        ids
    }

    /// [`Player::owned`] sorted by id: the observation's `owned` list.
    pub fn owned_sorted(&self) -> Vec<CardId> {
        let mut ids = self.owned();
        ids.sort_unstable();
        ids
    }
}

/// An advancement bought this turn and not yet sleeved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Purchase {
    /// The copy bought.
    pub copy: CopyId,
    /// The card the buyer declared (Earthchant Chorus).
    pub target: Option<CardId>,
}

/// What the active player has done this turn (Python's `Turn`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The active player.
    pub player: u8,
    /// The phase, one of [`PHASES`].
    pub phase: &'static str,
    /// Did the player spoil?
    pub spoiled: bool,
    /// Mana from the token and from abilities.
    pub mana_bonus: i64,
    /// Mana spent.
    pub mana_spent: i64,
    /// Spirits spent: animal, forest, sky, any.
    pub spirit_spent: [i64; 4],
    /// Spirits gained by abilities: animal, forest, sky, wild.
    pub spirit_bonus: [i64; 4],
    /// Vales bought.
    pub vale_buys: i64,
    /// Vales that may be bought.
    pub vale_limit: i64,
    /// Advancements bought.
    pub adv_buys: i64,
    /// Advancements bought and not yet sleeved.
    pub purchases: Vec<Purchase>,
    /// Vale ids bought this turn.
    pub new_vales: Vec<ValeId>,
    /// `[card, layer]` sleeved this turn.
    pub new_layers: Vec<[i64; 2]>,
    /// Abilities used this turn.
    pub used: Vec<Box<str>>,
    /// Field cards whose VP were gained.
    pub scored: Vec<CardId>,
    /// Field cards kept for next turn.
    pub kept: Vec<CardId>,
    /// Leader cards upgraded this Harvest.
    pub upgrades: Vec<CardId>,
    /// Height of the step stack when the current phase began.
    pub phase_floor: i64,
}

impl Turn {
    /// A fresh turn of `player` (Python's `Turn(player)`).
    pub fn new(player: u8) -> Turn {
        Turn {
            player,
            phase: "planting",
            spoiled: false,
            mana_bonus: 0,
            mana_spent: 0,
            spirit_spent: [0; 4],
            spirit_bonus: [0; 4],
            vale_buys: 0,
            vale_limit: 2,
            adv_buys: 0,
            purchases: Vec::new(),
            new_vales: Vec::new(),
            new_layers: Vec::new(),
            used: Vec::new(),
            scored: Vec::new(),
            kept: Vec::new(),
            upgrades: Vec::new(),
            phase_floor: 0,
        }
    }
}

/// A record of something that happened, for logs and presentation layers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// What kind of event (`reveal`, `setup`, ...).
    pub kind: Cow<'static, str>,
    /// The player it concerns.
    pub player: Option<u8>,
    /// Its text.
    pub text: String,
    /// If set, only this seat may read `text`; the others read `public_text`.
    pub private_to: Option<u8>,
    /// What the other seats read.
    pub public_text: String,
    /// Its data (a dict).
    pub data: Vec<(Key, J)>,
}

/// A piece of rules work waiting to run (Python's `Step`: a kind and its data).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The kind of work (one of [`STEP_KINDS`] in any state that loaded or was played;
    /// borrowed, so a step costs no text).
    pub kind: Cow<'static, str>,
    /// The player it is for.
    pub player: u8,
    /// Its data (a dict; a `copy` entry is a copy id, `items` a list of such dicts).
    pub data: Vec<(Key, J)>,
}

/// A decision someone must take before the game can go on (Python's `Pending`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pending {
    /// The kind of decision.
    pub kind: Box<str>,
    /// Who decides.
    pub player: u8,
    /// Its data, as [`Step::data`].
    pub data: Vec<(Key, J)>,
    /// Card ids this decision shows only to `player`.
    pub private: Vec<CardId>,
}

/// A whole game (Python's `State`). Cards, events and the history are immutable once
/// made and shared between clones (as Python shares its tuples and event records), so a
/// clone copies no card or text.
#[derive(Clone, Debug)]
pub struct State {
    /// The cards of this game, shared.
    pub cat: Arc<Catalogue>,
    /// The rule set.
    pub ruleset: &'static RuleSet,
    /// The game's randomness.
    pub rng: Rng,
    /// Each card's layers. Shared between copies of the game until one of them sleeves a
    /// card (`Arc::make_mut`), which is rare beside the copies a search makes.
    pub cards: Arc<Vec<Arc<[CopyId]>>>,
    /// Each card's original owner (its card back); never changes, so shared by every copy.
    pub owner: Arc<Vec<u8>>,
    /// The players.
    pub players: Vec<Player>,
    /// Levels 1-3: the face-down supply (top last).
    pub adv_decks: [Vec<CopyId>; 3],
    /// Levels 1-3: the three face-up copies.
    pub commons: [[Option<CopyId>; 3]; 3],
    /// Fertile Soil copies left per slot (top, middle, bottom).
    pub soil_left: [i64; 3],
    /// Vale card id -> vale type (never changes: shared by every copy).
    pub vale_types: Arc<Vec<u16>>,
    /// Levels 1-2: the face-down vale decks (top last).
    pub vale_decks: [Vec<ValeId>; 2],
    /// Levels 1-2: the four face-up vales.
    pub vale_rows: [[Option<ValeId>; 4]; 2],
    /// VP tokens left in the pool.
    pub vp_pool: i64,
    /// VP taken from the reserve.
    pub vp_reserve_taken: i64,
    /// Curse tokens taken from the supply.
    pub curse_supply_taken: i64,
    /// The player with the star token.
    pub first_player: u8,
    /// The player whose turn it is.
    pub current: u8,
    /// The round.
    pub round: i64,
    /// The turn number.
    pub turn_number: i64,
    /// This turn.
    pub turn: Turn,
    /// Rules work to do, the next last.
    pub steps: Vec<Step>,
    /// Open decisions, the current one last.
    pub pending: Vec<Pending>,
    /// Why the game will end after this round.
    pub end_triggered: Option<Box<str>>,
    /// Is the game over?
    pub over: bool,
    /// "You win the game" (Le Que).
    pub winner_override: Option<Vec<u8>>,
    /// Players owed an extra turn.
    pub extra_turns: Vec<u8>,
    /// Leader cards that have been face up.
    pub seen_leaders: Vec<CardId>,
    /// The `finish_turn` interface option.
    pub finish_turn: bool,
    /// The events.
    pub events: Chain<Event>,
    /// Notation of every action applied.
    pub history: Chain<Box<str>>,
    /// Each card's stats with the layers they belong to, a cache that is not part of the
    /// game (`zones::card_stats` reads it, `zones::refresh_stats` renews it; an entry
    /// whose layers are no longer the card's is not used). Shared between clones.
    pub stats_memo: StatsMemo,
}

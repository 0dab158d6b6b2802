//! Twin of mysticvale/engine/card_types.py: card types as the engine sees them (printed
//! numbers, slots, abilities), and the ability vocabulary of engine/registry.py as one enum.
//!
//! These are plain immutable records built once per catalogue by [`crate::catalogue`]
//! from the table Python hands over; the twin never reads the card files itself.
#![forbid(unsafe_code)]

use serde::Deserialize;

/// Symbols on the left side of a card, in Python's `SYMBOLS` order (the index of a
/// symbol is its place in a card's symbol array).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum Symbol {
    /// Mana: buys advancements.
    Mana,
    /// Growth: cancels one decay.
    Growth,
    /// Decay: three spoil the field.
    Decay,
    /// Victory points gained in the Harvest.
    Vp,
    /// The animal spirit.
    Animal,
    /// The forest spirit.
    Forest,
    /// The sky spirit.
    Sky,
    /// The wild spirit (any of the three).
    Wild,
    /// Guardian.
    Guardian,
    /// Curse (Twilight Garden).
    Curse,
}

/// Every symbol, in `SYMBOLS` order.
pub const SYMBOLS: [Symbol; 10] = [
    Symbol::Mana,
    Symbol::Growth,
    Symbol::Decay,
    Symbol::Vp,
    Symbol::Animal,
    Symbol::Forest,
    Symbol::Sky,
    Symbol::Wild,
    Symbol::Guardian,
    Symbol::Curse,
];

impl Symbol {
    /// The symbol's name in the card data and in Python's `SYMBOLS`.
    pub fn name(self) -> &'static str {
        match self {
            Symbol::Mana => "mana",
            Symbol::Growth => "growth",
            Symbol::Decay => "decay",
            Symbol::Vp => "vp",
            Symbol::Animal => "animal",
            Symbol::Forest => "forest",
            Symbol::Sky => "sky",
            Symbol::Wild => "wild",
            Symbol::Guardian => "guardian",
            Symbol::Curse => "curse",
        }
    }
}

/// The three slots of a sleeve, in Python's `SLOTS` order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum Slot {
    /// The top slot.
    Top,
    /// The middle slot.
    Middle,
    /// The bottom slot.
    Bottom,
}

/// Every slot, in `SLOTS` order.
pub const SLOTS: [Slot; 3] = [Slot::Top, Slot::Middle, Slot::Bottom];

impl Slot {
    /// The slot's name in the card data and in actions (`buy soil.top`).
    pub fn name(self) -> &'static str {
        match self {
            Slot::Top => "top",
            Slot::Middle => "middle",
            Slot::Bottom => "bottom",
        }
    }

    /// The slot's bit in a [`Slots`] set.
    pub fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// A set of slots (the slots one advancement copy fills), as a bit set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Slots(pub u8);

impl Slots {
    /// The set of the given slots.
    pub fn of(slots: &[Slot]) -> Slots {
        Slots(slots.iter().fold(0, |acc, s| acc | s.bit()))
    }

    /// Does the set hold `slot`?
    pub fn contains(self, slot: Slot) -> bool {
        self.0 & slot.bit() != 0
    }

    /// Do the two sets share a slot (does a later copy cover an earlier one)?
    pub fn overlaps(self, other: Slots) -> bool {
        self.0 & other.0 != 0
    }

    /// How many slots the set holds (more than one: a legendary advancement).
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Is the set empty?
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The slots in `SLOTS` order.
    pub fn iter(self) -> impl Iterator<Item = Slot> {
        SLOTS.into_iter().filter(move |s| self.contains(*s))
    }
}

/// When an ability acts (Python's `TRIGGERS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trigger {
    /// Resolves as the card goes from on-deck into the field.
    WhenPlayed,
    /// Usable once in the Harvest phase while in the field.
    Harvest,
    /// Always on, wherever the card is.
    Ongoing,
    /// Resolves in the Discard phase.
    Discard,
    /// Resolves the moment the card is bought.
    WhenBought,
    /// Only matters for final scoring.
    EndGame,
    /// May be used instead of spoiling (Peacekeeper Druid, Aether Tree).
    SpoilGuard,
    /// A discount on an advancement sleeved on this card (Earthchant Chorus).
    BuyDiscount,
    /// Resolves when you spoil while the card is in the field.
    OnSpoil,
    /// Resolves when an opponent spoils (Echoing Waterfalls).
    OpponentSpoil,
}

impl Trigger {
    /// The trigger's name in the card data.
    pub fn name(self) -> &'static str {
        match self {
            Trigger::WhenPlayed => "when_played",
            Trigger::Harvest => "harvest",
            Trigger::Ongoing => "ongoing",
            Trigger::Discard => "discard",
            Trigger::WhenBought => "when_bought",
            Trigger::EndGame => "end_game",
            Trigger::SpoilGuard => "spoil_guard",
            Trigger::BuyDiscount => "buy_discount",
            Trigger::OnSpoil => "on_spoil",
            Trigger::OpponentSpoil => "opponent_spoil",
        }
    }
}

/// The ability vocabulary (Python's `registry.EFFECTS`): each effect with its parameters.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "effect", content = "params", rename_all = "snake_case", deny_unknown_fields)]
pub enum Effect {
    /// Ongoing: +per mana for each guardian on this card (Grovetender).
    ManaPerGuardian {
        /// `per`
        #[serde(default)]
        per: Option<i64>,
    },
    /// Ongoing: +per mana for each given symbol on this card.
    ManaPerSymbol {
        /// `symbol`
        #[serde(default)]
        symbol: Option<Symbol>,
        /// `per`
        #[serde(default)]
        per: Option<i64>,
    },
    /// Ongoing: this card has no decay (Lifebringer Seed).
    NoDecay {},
    /// Ongoing: this card has at most max decay (Seedling).
    MaxDecay {
        /// `max`
        #[serde(default)]
        max: Option<i64>,
    },
    /// An advancement bought to be sleeved on this card costs amount less (Earthchant Chorus).
    DiscountOnThisCard {
        /// `amount`
        #[serde(default)]
        amount: Option<i64>,
    },
    /// End of game: 1 VP per symbol printed on this card, text ignored (Gaia's Chosen).
    VpPerPrintedSymbol {},
    /// Instead of spoiling, discard the on-deck card and reveal another (Peacekeeper Druid).
    DiscardOnDeckInstead {},
    /// Instead of spoiling, discard this vale to cancel non-Cursed-Land decay on a card (Aether Tree).
    CancelDecayOnCard {},
    /// Gain 1 mana for every ``per`` cards in your field, rounded down (Aurora).
    ManaPerFieldCards {
        /// `per`
        #[serde(default)]
        per: Option<i64>,
    },
    /// Gain 1 mana for each other card in your field (Magic Seed).
    ManaPerOtherFieldCards {},
    /// Look at the top card of your deck; discard it or put it back (Calm Weather).
    LookTopDiscardOrKeep {},
    /// You may discard another card already in your field.
    DiscardFieldCard {},
    /// Search your deck for any card and you may discard it; then shuffle your deck. With an empty deck, first shuffle the discard pile into a new deck (file 000).
    SearchDeckDiscard {},
    /// Gain mana equal to ``below`` minus the cards in your field, never less than 0 (file 003: Frostmarch Glacier 6, Raincaller Rock 5).
    ManaBelowFieldCount {
        /// `below`
        #[serde(default)]
        below: Option<i64>,
    },
    /// Every player whose mana token is on its used side turns it to the active side (file 003: all of them or none, the user included).
    AllManaTokensActive {},
    /// Discard one of your own curse tokens, back to the pool (file 003, Herbalist).
    DiscardCurseToken {
        /// `amount`
        #[serde(default)]
        amount: Option<i64>,
    },
    /// Each opponent either gives you one VP token or gains ``curse`` curse tokens; one without VP tokens must take the curse tokens (file 003). Each opponent decides.
    OpponentsGiveVpOrCurse {
        /// `curse`
        #[serde(default)]
        curse: Option<i64>,
    },
    /// You may buy one more vale this turn; you may also give one of your level-2 vales to an opponent and claim up to two of that opponent's level-1 vales (file 003). No When Bought effects; the claimed vales do not count towards the buy limit.
    ExtraValeAndSwap {},
    /// Look at the top card of the level-``level`` vale deck privately; you may take it free (When Bought effects trigger; it does not count towards the buy limit) or put it back (file 003, Ranger Captain).
    FreeTopVale {
        /// `level`
        #[serde(default)]
        level: Option<i64>,
    },
    /// Look at the top card of the level-``level`` advancement deck privately; you may take it free if you can sleeve it, or put it back (file 003, Snapjaw).
    FreeTopAdvancement {
        /// `level`
        #[serde(default)]
        level: Option<i64>,
    },
    /// Buy for free one advancement of the commons (Fertile Soil included) costing from ``min_cost`` to ``max_cost``; When Bought effects trigger; not counted as a buy (file 003, Rockspine Zenith).
    FreeCommonsAdvancement {
        /// `min_cost`
        #[serde(default)]
        min_cost: Option<i64>,
        /// `max_cost`
        #[serde(default)]
        max_cost: Option<i64>,
    },
    /// Place the bottom card of your deck at the end of your field (shuffling the discard pile into a new deck first if the deck is empty). It is placed, not played: no When Played effect; its VP and curse symbols count in this Harvest (our reading).
    BottomCardIntoField {},
    /// Look at one card from the top of your deck per guardian on this card; discard any of them, put the rest back in any order (file 003, Truesight Archer).
    LookTopPerGuardian {},
    /// Look at the top ``count`` cards of your deck (the on-deck card is not part of it); discard any, put the rest back in any order (file 003, Sorcel and Le Que).
    LookTopN {
        /// `count`
        #[serde(default)]
        count: Option<i64>,
    },
    /// Reveal cards one at a time from the top of your deck until ``count`` cards with a Cursed Land are revealed (shuffling the discard pile in when the deck runs out; with too few, all). Put one revealed card into your field (placed: no When Played), the rest into your discard pile (file 003).
    RevealUntilCursedLands {
        /// `count`
        #[serde(default)]
        count: Option<i64>,
    },
    /// When you spoil with this card in the field, gain curse tokens equal to the curse symbols on this card (printed symbols only, text ignored: file 003).
    CursePerCurseSymbol {},
    /// When you spoil with this card in the field: gain 1 VP token per card fewer than ``below`` (9) in your field, then take another turn after this one (file 003).
    VpPerMissingCardAndExtraTurn {
        /// `below`
        #[serde(default)]
        below: Option<i64>,
    },
    /// When an opponent spoils you may discard your on-deck card and reveal a new one (file 003, Echoing Waterfalls). A resulting spoil waits for your Planting phase.
    RedrawOnDeckOnOpponentSpoil {},
    /// Choose: every player gains curse tokens, or every player gains VP tokens from the reserve (not the pool), equal to the negative VP on that player's vales (file 003).
    AllGainPerValeNegativeVp {},
    /// If your token points (VP minus curse tokens) are 0 or less and your vales' shield VP are 0 or less (upgraded: either of the two), this card stays in your field for your next turn, with one other field card showing a Cursed Land if you have one (file 003).
    KeepInFieldWhenPointless {
        /// `either`
        #[serde(default)]
        either: Option<bool>,
    },
    /// The opponent(s) with the most vales gain 2 curse tokens; the opponent(s) with the most net VP tokens (VP minus curse tokens) gain 2 curse tokens; one player can get both (file 003). Both are decided before either is paid, and 'the most' needs at least one vale / one net VP (our reading, docs/rules-decisions.md).
    CurseLeadingOpponents {
        /// `curse`
        #[serde(default)]
        curse: Option<i64>,
    },
    /// Place the top 7 cards of your deck into your field (placed, not played), then reveal an on-deck card; you cannot push or spoil any more. In Planting go on to the Harvest; in Prep your turn ends and the next one begins with its Harvest (file 003).
    PlaceTopCardsEndPlanting {
        /// `count`
        #[serde(default)]
        count: Option<i64>,
    },
    /// Discard phase, not optional: turn this leader back to its starting side (file 003, Hectoro).
    FlipToStartingSide {},
    /// Choose any advancement of the commons that fills this ability's slot (regardless of cost) and sleeve it onto this card, covering the ability; When Bought effects trigger; it is free and not counted as a buy (file 003, Kojen and Khan).
    SleeveFreeAdvancementHere {
        /// `slot`
        #[serde(default)]
        slot: Option<Slot>,
    },
    /// With 20 or more cards in your field, you win the game at once, whatever the points (file 003).
    WinWithFieldCards {
        /// `cards`
        #[serde(default)]
        cards: Option<i64>,
    },
    /// Choose 4 cards in one opponent's field (all, if fewer); that opponent chooses one of them, which goes on top of your discard pile and is yours from now on (file 003).
    TakeCardFromOpponentField {
        /// `cards`
        #[serde(default)]
        cards: Option<i64>,
    },
    /// Pay 5 mana to turn this leader back to its starting side; with 20 or more cards in your field then, you win at once (file 003). The starting side's Harvest abilities are not usable in this Harvest (our reading).
    PayToFlipBackAndWin {
        /// `cost`
        #[serde(default)]
        cost: Option<i64>,
        /// `cards`
        #[serde(default)]
        cards: Option<i64>,
    },
    /// End of game: ``per`` VP for each ``symbol`` printed on the cards you own (your whole deck, not only the draw pile) (Sporeling Reclaimer; read by engine/scoring.py).
    VpPerSymbolInDeck {
        /// `symbol`
        #[serde(default)]
        symbol: Option<Symbol>,
        /// `per`
        #[serde(default)]
        per: Option<i64>,
    },
    /// If your mana token is face down, turn it face up (Goldenwing Gryphon, file 000). Bought vales with this ability (yucata notes): a token already face up is first spent for its 1 mana, then turned face up again. (A player could do the same by spending the token just before buying, so this holds in every rule set.)
    ActivateManaToken {},
    /// For each ``symbol`` on this card, put the top card of your deck (below the on-deck card) into your field as the rightmost card; exactly that many (file 000, Canopy Explorer). An empty deck is refilled from the discard pile. The cards count in the Harvest (their mana, spirits and VP), but it is too late for growth and When Played.
    FieldFromDeckPerSymbol {
        /// `symbol`
        #[serde(default)]
        symbol: Option<Symbol>,
    },
    /// Double your mana: gain as much mana as you have left to spend now (file 000, Ley Line Overflow: best used last; two of them quadruple).
    DoubleMana {},
    /// Gain ``amount`` VP tokens from the VP pool (Vale of Magic: once every Harvest phase).
    GainVp {
        /// `amount`
        #[serde(default)]
        amount: Option<i64>,
    },
    /// Choose a card in your field; gain 1 mana for each guardian on it (provisional text). The yucata rule set chooses the card with the most guardians (the leftmost if tied); otherwise the player chooses when the cards differ.
    ManaPerGuardianOnFieldCard {},
    /// For each ``symbol`` on this card, search your deck for any card and you may discard it; then shuffle your deck (not the discard pile). With an empty deck, first shuffle the discard pile into a new deck (file 000, Lifetap Oracle).
    SearchDeckDiscardPerSymbol {
        /// `symbol`
        #[serde(default)]
        symbol: Option<Symbol>,
    },
    /// If this card is not the first (leftmost) card of your field, you may keep it in your field: it becomes the first card of your next field (file 000, Hatchery). Several kept cards keep the order their abilities resolved in (the active player's order). "First" is the leftmost card of this turn's field, so a card kept last turn (now first) is discarded as normal.
    KeepInField {},
    /// After you spoil, you may choose a card in your field: it is not discarded and becomes the first card of your next field (provisional text, docs/rules-decisions.md).
    KeepFieldCard {},
    /// Gain ``amount`` mana to spend this turn (Fauna Hollow: 2).
    GainMana {
        /// `amount`
        #[serde(default)]
        amount: Option<i64>,
    },
    /// Take the top card of the level-``level`` vale deck and add it to your vales (file 000, Sunwell Temple). Its ability may not be used this turn and its When Bought ability gives nothing; it is not a buy (no spirit cost, not one of the two vale buys).
    GainTopVale {
        /// `level`
        #[serde(default)]
        level: Option<i64>,
    },
    /// Look at the top ``count`` face-down cards of your deck (the on-deck card is not in the deck); discard any of them; the rest go back face down in the same order, which you now know. With fewer cards in the deck, look at all of them (no reshuffle) (file 000, Wood Sprite Hoard; yucata notes: the order of the returned cards is shown).
    LookTopDiscardAny {
        /// `count`
        #[serde(default)]
        count: Option<i64>,
    },
}

impl Effect {
    /// The effect's name in the card data.
    pub fn name(&self) -> &'static str {
        match self {
            Effect::ManaPerGuardian { .. } => "mana_per_guardian",
            Effect::ManaPerSymbol { .. } => "mana_per_symbol",
            Effect::NoDecay { .. } => "no_decay",
            Effect::MaxDecay { .. } => "max_decay",
            Effect::DiscountOnThisCard { .. } => "discount_on_this_card",
            Effect::VpPerPrintedSymbol { .. } => "vp_per_printed_symbol",
            Effect::DiscardOnDeckInstead { .. } => "discard_on_deck_instead",
            Effect::CancelDecayOnCard { .. } => "cancel_decay_on_card",
            Effect::ManaPerFieldCards { .. } => "mana_per_field_cards",
            Effect::ManaPerOtherFieldCards { .. } => "mana_per_other_field_cards",
            Effect::LookTopDiscardOrKeep { .. } => "look_top_discard_or_keep",
            Effect::DiscardFieldCard { .. } => "discard_field_card",
            Effect::SearchDeckDiscard { .. } => "search_deck_discard",
            Effect::ManaBelowFieldCount { .. } => "mana_below_field_count",
            Effect::AllManaTokensActive { .. } => "all_mana_tokens_active",
            Effect::DiscardCurseToken { .. } => "discard_curse_token",
            Effect::OpponentsGiveVpOrCurse { .. } => "opponents_give_vp_or_curse",
            Effect::ExtraValeAndSwap { .. } => "extra_vale_and_swap",
            Effect::FreeTopVale { .. } => "free_top_vale",
            Effect::FreeTopAdvancement { .. } => "free_top_advancement",
            Effect::FreeCommonsAdvancement { .. } => "free_commons_advancement",
            Effect::BottomCardIntoField { .. } => "bottom_card_into_field",
            Effect::LookTopPerGuardian { .. } => "look_top_per_guardian",
            Effect::LookTopN { .. } => "look_top_n",
            Effect::RevealUntilCursedLands { .. } => "reveal_until_cursed_lands",
            Effect::CursePerCurseSymbol { .. } => "curse_per_curse_symbol",
            Effect::VpPerMissingCardAndExtraTurn { .. } => "vp_per_missing_card_and_extra_turn",
            Effect::RedrawOnDeckOnOpponentSpoil { .. } => "redraw_on_deck_on_opponent_spoil",
            Effect::AllGainPerValeNegativeVp { .. } => "all_gain_per_vale_negative_vp",
            Effect::KeepInFieldWhenPointless { .. } => "keep_in_field_when_pointless",
            Effect::CurseLeadingOpponents { .. } => "curse_leading_opponents",
            Effect::PlaceTopCardsEndPlanting { .. } => "place_top_cards_end_planting",
            Effect::FlipToStartingSide { .. } => "flip_to_starting_side",
            Effect::SleeveFreeAdvancementHere { .. } => "sleeve_free_advancement_here",
            Effect::WinWithFieldCards { .. } => "win_with_field_cards",
            Effect::TakeCardFromOpponentField { .. } => "take_card_from_opponent_field",
            Effect::PayToFlipBackAndWin { .. } => "pay_to_flip_back_and_win",
            Effect::VpPerSymbolInDeck { .. } => "vp_per_symbol_in_deck",
            Effect::ActivateManaToken { .. } => "activate_mana_token",
            Effect::FieldFromDeckPerSymbol { .. } => "field_from_deck_per_symbol",
            Effect::DoubleMana { .. } => "double_mana",
            Effect::GainVp { .. } => "gain_vp",
            Effect::ManaPerGuardianOnFieldCard { .. } => "mana_per_guardian_on_field_card",
            Effect::SearchDeckDiscardPerSymbol { .. } => "search_deck_discard_per_symbol",
            Effect::KeepInField { .. } => "keep_in_field",
            Effect::KeepFieldCard { .. } => "keep_field_card",
            Effect::GainMana { .. } => "gain_mana",
            Effect::GainTopVale { .. } => "gain_top_vale",
            Effect::LookTopDiscardAny { .. } => "look_top_discard_any",
        }
    }

    /// The triggers this effect may have (the loader refuses any other).
    pub fn triggers(&self) -> &'static [Trigger] {
        match self {
            Effect::ManaPerGuardian { .. } => &[Trigger::Ongoing],
            Effect::ManaPerSymbol { .. } => &[Trigger::Ongoing],
            Effect::NoDecay { .. } => &[Trigger::Ongoing],
            Effect::MaxDecay { .. } => &[Trigger::Ongoing],
            Effect::DiscountOnThisCard { .. } => &[Trigger::BuyDiscount],
            Effect::VpPerPrintedSymbol { .. } => &[Trigger::EndGame],
            Effect::DiscardOnDeckInstead { .. } => &[Trigger::SpoilGuard],
            Effect::CancelDecayOnCard { .. } => &[Trigger::SpoilGuard],
            Effect::ManaPerFieldCards { .. } => &[Trigger::Harvest],
            Effect::ManaPerOtherFieldCards { .. } => &[Trigger::Harvest],
            Effect::LookTopDiscardOrKeep { .. } => &[Trigger::WhenPlayed],
            Effect::DiscardFieldCard { .. } => &[Trigger::WhenPlayed],
            Effect::SearchDeckDiscard { .. } => &[Trigger::WhenPlayed],
            Effect::ManaBelowFieldCount { .. } => &[Trigger::Harvest],
            Effect::AllManaTokensActive { .. } => &[Trigger::Harvest],
            Effect::DiscardCurseToken { .. } => &[Trigger::Harvest],
            Effect::OpponentsGiveVpOrCurse { .. } => &[Trigger::Harvest],
            Effect::ExtraValeAndSwap { .. } => &[Trigger::Harvest],
            Effect::FreeTopVale { .. } => &[Trigger::Harvest],
            Effect::FreeTopAdvancement { .. } => &[Trigger::Harvest],
            Effect::FreeCommonsAdvancement { .. } => &[Trigger::Harvest],
            Effect::BottomCardIntoField { .. } => &[Trigger::Harvest],
            Effect::LookTopPerGuardian { .. } => &[Trigger::WhenPlayed],
            Effect::LookTopN { .. } => &[Trigger::WhenPlayed],
            Effect::RevealUntilCursedLands { .. } => &[Trigger::WhenPlayed],
            Effect::CursePerCurseSymbol { .. } => &[Trigger::OnSpoil],
            Effect::VpPerMissingCardAndExtraTurn { .. } => &[Trigger::OnSpoil],
            Effect::RedrawOnDeckOnOpponentSpoil { .. } => &[Trigger::OpponentSpoil],
            Effect::AllGainPerValeNegativeVp { .. } => &[Trigger::WhenBought],
            Effect::KeepInFieldWhenPointless { .. } => &[Trigger::Discard],
            Effect::CurseLeadingOpponents { .. } => &[Trigger::Harvest],
            Effect::PlaceTopCardsEndPlanting { .. } => &[Trigger::WhenPlayed],
            Effect::FlipToStartingSide { .. } => &[Trigger::Discard],
            Effect::SleeveFreeAdvancementHere { .. } => &[Trigger::Harvest],
            Effect::WinWithFieldCards { .. } => &[Trigger::Harvest],
            Effect::TakeCardFromOpponentField { .. } => &[Trigger::Harvest],
            Effect::PayToFlipBackAndWin { .. } => &[Trigger::Harvest],
            Effect::VpPerSymbolInDeck { .. } => &[Trigger::EndGame],
            Effect::ActivateManaToken { .. } => &[Trigger::WhenPlayed, Trigger::WhenBought],
            Effect::FieldFromDeckPerSymbol { .. } => &[Trigger::Harvest],
            Effect::DoubleMana { .. } => &[Trigger::Harvest],
            Effect::GainVp { .. } => &[Trigger::Harvest, Trigger::WhenBought, Trigger::WhenPlayed],
            Effect::ManaPerGuardianOnFieldCard { .. } => &[Trigger::Harvest],
            Effect::SearchDeckDiscardPerSymbol { .. } => &[Trigger::WhenPlayed],
            Effect::KeepInField { .. } => &[Trigger::Discard],
            Effect::KeepFieldCard { .. } => &[Trigger::OnSpoil],
            Effect::GainMana { .. } => &[Trigger::WhenBought, Trigger::Harvest],
            Effect::GainTopVale { .. } => &[Trigger::WhenBought],
            Effect::LookTopDiscardAny { .. } => &[Trigger::WhenBought, Trigger::WhenPlayed],
        }
    }
}

/// One ability: when it acts, which effect it has (with its parameters), whether the
/// player may decline it, and its printed text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ability {
    /// When it acts.
    pub trigger: Trigger,
    /// What it does.
    pub effect: Effect,
    /// May the player decline it?
    pub optional: bool,
    /// The ability's own printed text (empty: the card's text says it).
    pub text: Box<str>,
}

/// What kind of card an advancement type is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// An advancement of the supply (level 1-3).
    Advancement,
    /// Fertile Soil, always in the commons.
    FertileSoil,
    /// A printed starting advancement (Cursed Land, Fertile Soil on a starting card).
    Starting,
    /// A part of one side of a leader card (Twilight Garden).
    Leader,
}

/// An advancement type (or a printed starting advancement, or a leader's part).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdvancementType {
    /// The card's name.
    pub name: Box<str>,
    /// The set it belongs to.
    pub set: Box<str>,
    /// What kind of card it is.
    pub kind: Kind,
    /// 1-3 for the supply, 0 for starting cards, Fertile Soil and leader parts.
    pub level: u8,
    /// Its mana cost.
    pub cost: i64,
    /// Its printed symbols, in [`SYMBOLS`] order.
    pub symbols: [i64; 10],
    /// Gray VP on the right side.
    pub end_vp: i64,
    /// Red negative VP on the right side (a positive number).
    pub neg_vp: i64,
    /// Its abilities, in printed order.
    pub abilities: Vec<Ability>,
    /// May a later advancement cover it (an eclipse advancement)?
    pub eclipse: bool,
    /// Is it a longwise card?
    pub longwise: bool,
    /// Is it a generic card (not a printed one)?
    pub generic: bool,
    /// What a player reads on the printed card.
    pub text: Box<str>,
    /// Where what a player reads comes from, when something of it is ours.
    pub note: Box<str>,
    /// Does the card stand in for a printed card we cannot reproduce?
    pub stand_in: bool,
    /// The printed values that are ours, in Python's `value_fields` order.
    pub provisional: Vec<Box<str>>,
}

impl AdvancementType {
    /// One printed symbol of the type.
    pub fn symbol(&self, s: Symbol) -> i64 {
        self.symbols[s as usize]
    }
}

/// One printed copy of an advancement type: the type and the slots it fills.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdvCopy {
    /// The copy's label, `"Aurora@top"` (how saves name it).
    pub label: Box<str>,
    /// Its type's index in [`crate::catalogue::Catalogue::types`].
    pub type_id: u16,
    /// The slots it fills.
    pub slots: Slots,
}

/// A vale card type: its spirit cost, VP and ability.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValeType {
    /// The vale's name.
    pub name: Box<str>,
    /// The set it belongs to.
    pub set: Box<str>,
    /// Level 1 or 2.
    pub level: u8,
    /// Spirits it costs: animal, forest, sky, any.
    pub cost: [i64; 4],
    /// Gray VP.
    pub end_vp: i64,
    /// Red negative VP (a positive number).
    pub neg_vp: i64,
    /// Copies of it in the vale deck.
    pub copies: u16,
    /// Its abilities.
    pub abilities: Vec<Ability>,
    /// Is it a generic vale (not a printed one)?
    pub generic: bool,
    /// What a player reads on it.
    pub text: Box<str>,
    /// As [`AdvancementType::note`].
    pub note: Box<str>,
    /// As [`AdvancementType::stand_in`].
    pub stand_in: bool,
    /// As [`AdvancementType::provisional`].
    pub provisional: Vec<Box<str>>,
}

/// A leader card (Twilight Garden): two sides, each made of parts (advancement types of
/// kind [`Kind::Leader`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaderType {
    /// The leader's name.
    pub name: Box<str>,
    /// Its title.
    pub title: Box<str>,
    /// The set it belongs to.
    pub set: Box<str>,
    /// Mana to turn it to its upgraded side.
    pub upgrade_cost: i64,
    /// Type ids of the parts of its starting side.
    pub start: Vec<u16>,
    /// Type ids of the parts of its upgraded side.
    pub upgraded: Vec<u16>,
    /// The word naming it in actions (`choose kojen_and_khan`).
    pub slug: Box<str>,
    /// Are its abilities ours?
    pub stand_in: bool,
    /// What a player reads on it.
    pub text: Box<str>,
    /// As [`AdvancementType::note`].
    pub note: Box<str>,
}

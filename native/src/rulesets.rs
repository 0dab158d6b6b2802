//! Twin of mysticvale/engine/rulesets.py: the named rule sets, every place where the rules
//! documents differ, as data in one place.
#![forbid(unsafe_code)]

/// One named rule set; each flag names the rule it switches (see rulesets.py).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleSet {
    /// `yucata`, `english` or `german`.
    pub name: &'static str,
    /// Harvest: trade 3 spare spirit symbols for 1 VP from the reserve.
    pub spirit_trade: bool,
    /// Game end is also triggered when the last level-2 vale enters the commons.
    pub end_on_last_level2_vale: bool,
    /// Prep may be stopped early once more than 2 decay symbols show (German rules).
    pub prep_early_stop: bool,
    /// Aether Tree may cancel decay on the on-deck card as well (yucata).
    pub aether_tree_on_deck: bool,
    /// Manadew Meadow's target is chosen automatically (yucata).
    pub manadew_auto_target: bool,
}

/// Every rule set, in Python's `RULESETS` order.
pub const RULESETS: [RuleSet; 3] = [
    RuleSet {
        name: "yucata",
        spirit_trade: true,
        end_on_last_level2_vale: true,
        prep_early_stop: false,
        aether_tree_on_deck: true,
        manadew_auto_target: true,
    },
    RuleSet {
        name: "english",
        spirit_trade: false,
        end_on_last_level2_vale: false,
        prep_early_stop: false,
        aether_tree_on_deck: false,
        manadew_auto_target: false,
    },
    RuleSet {
        name: "german",
        spirit_trade: true,
        end_on_last_level2_vale: true,
        prep_early_stop: true,
        aether_tree_on_deck: false,
        manadew_auto_target: false,
    },
];

/// The rule set called `name`; `Err` with Python's message for an unknown name
/// (`unknown rule set 'x'; known rule sets: english, german, yucata`).
///
/// # Errors
/// An unknown name.
pub fn get_ruleset(name: &str) -> Result<&'static RuleSet, String> {
    RULESETS.iter().find(|r| r.name == name).ok_or_else(|| {
        let mut known: Vec<&str> = RULESETS.iter().map(|r| r.name).collect();
        known.sort_unstable();
        format!("unknown rule set {}; known rule sets: {}", crate::errors::py_repr(name), known.join(", "))
    })
}

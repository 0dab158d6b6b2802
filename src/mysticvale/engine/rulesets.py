"""Named rule sets: every place where the rules documents differ, as data in one place.

File 000 names three variants: ``english``, the printed English rulebook; ``german``, the
German rules (file 000's list of deviations; file 004, the German summary); and
``yucata``, what the online implementation on yucata.de does, a mix of the two (file 000
lists its deviations from the English rules).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class RuleSet:
    """One named rule set. Each flag names the rule it switches and where it comes from."""

    name: str
    #: Harvest: trade 3 spare spirit symbols for 1 VP from the reserve (German rules, yucata).
    spirit_trade: bool
    #: Game end is also triggered when the last level-2 vale enters the commons during a
    #: Discard phase (German rules, yucata).
    end_on_last_level2_vale: bool
    #: Prep may be stopped early once the field and the on-deck card show more than 2 decay
    #: symbols, growth not counted (German rules only; neither yucata nor the English rules
    #: allow it; docs/rules-decisions.md, "Rule sets").
    prep_early_stop: bool
    #: Aether Tree may cancel decay on the on-deck card as well as on field cards (yucata's
    #: amendment); the English text says "any card in your field".
    aether_tree_on_deck: bool
    #: Manadew Meadow's target is chosen automatically (the field card with the most
    #: guardian symbols) as on yucata; otherwise the player chooses.
    manadew_auto_target: bool

    def to_dict(self) -> dict:
        return asdict(self)


RULESETS: dict[str, RuleSet] = {
    "yucata": RuleSet(
        name="yucata",
        spirit_trade=True,
        end_on_last_level2_vale=True,
        prep_early_stop=False,
        aether_tree_on_deck=True,
        manadew_auto_target=True,
    ),
    "english": RuleSet(
        name="english",
        spirit_trade=False,
        end_on_last_level2_vale=False,
        prep_early_stop=False,
        aether_tree_on_deck=False,
        manadew_auto_target=False,
    ),
    # The German rules: the three German rules file 000 names; the cards as printed (the
    # Aether Tree amendment and Manadew Meadow's automatic target are yucata's own).
    "german": RuleSet(
        name="german",
        spirit_trade=True,
        end_on_last_level2_vale=True,
        prep_early_stop=True,
        aether_tree_on_deck=False,
        manadew_auto_target=False,
    ),
}


def get_ruleset(name: str) -> RuleSet:
    """The rule set called ``name``; a clear error for an unknown name."""
    try:
        return RULESETS[name]
    except KeyError:
        known = ", ".join(sorted(RULESETS))
        raise ValueError(f"unknown rule set {name!r}; known rule sets: {known}") from None

"""The catalogue checker's problems as data: where in the file, a code, and its arguments.

The checker (``cards/catalogue.py``) reports every problem of a card file.  Each is kept as a
:class:`Problem` so a page can word it in its reader's language (the house-cards check of the
lobby, messages ``house.check.<code>`` and ``house.where.<kind>``); the English text that
:class:`~mysticvale.errors.CatalogueError` and the command line show is made from
:data:`MESSAGES`, the same table.

Arguments that quote the file (a value, a key, a list of known words, an example of TOML)
are passed already written, as the file or Python writes them (``'mana'``, ``3``,
``{ mana = 1 }``), so every language shows the same quote.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: The English wording of every problem code; ``{where}`` in a message places the card
#: itself inside the sentence, otherwise the sentence follows ``"<where>: "``.
MESSAGES: dict[str, str] = {
    "missing_field": "missing required field '{key}'",
    "not_whole_number": "'{key}' must be a whole number, not {value}",
    "out_of_range": "'{key}' = {value} is out of range {lo}..{hi}",
    "not_bool": "'{key}' must be true or false, not {value}",
    "not_text": "'{key}' must be text, not {value}",
    "text_names_source": "'{key}' is what players read on the card, but it says where a value comes from "
                         "({words}): move that into 'note'",
    "text_names_rule_set": "'{key}' is what players read on the card, but it remarks on a rule set "
                           "({words}): move that into 'note'",
    "stand_in_disagrees": "'stand_in' and '{key}' disagree (they mean the same)",
    "generic_stand_in": "a generic card is not a printed card: it cannot have 'stand_in = false'",
    "symbols_not_table": "'symbols' must be a table like {example}, not {value}",
    "unknown_symbol": "unknown symbol {value} in 'symbols' (known: {known})",
    "unknown_field": "unknown field '{key}'",
    "provenance_not_table": "'provenance' must be a table like {example}",
    "provenance_unknown_field": "provenance given for unknown field '{key}'",
    "provenance_bad": "provenance of '{key}' must be one of {known}, not {value}",
    "abilities_not_list": "'abilities' must be a list of tables",
    "ability_not_table": "must be a table like {example}",
    "unknown_trigger": "unknown trigger {value} (known: {known})",
    "unknown_effect": "unknown effect {value}",
    "effect_trigger": "effect {effect} cannot have trigger {value} (it can: {known})",
    "effect_parameter": "effect {effect} takes no parameter {value} (it takes: {known})",
    "parameter_type": "parameter {key} has the wrong type: {value}",
    "parameter_symbol": "parameter 'symbol' must be one of {known}, not {value}",
    "optional_not_bool": "'optional' must be true or false",
    "no_set_table": "missing the [set] table (with id = \"base\" or another set)",
    "unknown_set": "unknown set id {value} (known: {known})",
    "unknown_section": "unknown section (known: set, starting, advancement, vale, leader)",
    "not_table": "must be a table",
    "slot_bad": "'slot' must be one of {known}, not {value}",
    "deck_size": "a player's deck must have 20 cards, these give {n}",
    "name_twice": "the name is used twice",
    "kind_bad": "'kind' must be advancement or fertile_soil, not {value}",
    "copies_bad": "'copies' must be a non-empty list of slot lists like [[\"top\"], [\"middle\"]]",
    "copy_slots_bad": "each copy must list slots from {known}, not {value}",
    "ability_value_bad": "'ability_value' must be a number, not {value}",
    "vale_cost_not_table": "'cost' must be a table like {example}",
    "vale_cost_spirit": "unknown spirit {value} in 'cost' (known: animal, forest, sky, any)",
    "vale_cost_zero": "a vale must cost at least one spirit symbol",
    "leaders_not_list": "must be a list of tables",
    "leader_side_bad": "'{side}' must be a non-empty list of parts ([[leader.{side}]] tables)",
    "part_slots_bad": "'slots' must list slots from {known}, not {value}",
    "part_slot_twice": "two parts of one side use the same slot",
    # The sets checked together (``load_catalogue``).
    "no_starting": "the base data has no [[starting]] cards",
    "in_two_sets": "{where} is in two sets",
    "soil_not_base": "Fertile Soil belongs in the base data",
    "starting_symbols": "its symbols differ from the advancement of that name",
    "no_soil": "the base data has no Fertile Soil advancement",
    "no_level_advancement": "the chosen sets have no level-{level} advancement",
    "no_level_vale": "the chosen sets have no level-{level} vale",
}

#: How each kind of place in a file is named in English (``{name}``: the card's name as
#: written, quoted, or its number; a table's heading as written, ``[set]``).
WHERE: dict[str, str] = {
    "set": "{name}",
    "section": "[{name}]",
    "starting": "starting card {name}",
    "starting_cards": "starting cards",
    "advancement": "advancement {name}",
    "vale": "vale {name}",
    "leaders": "{name}",
    "leader": "leader {name}",
    "leader_part": "leader part {name}",
}


@dataclass(frozen=True)
class Where:
    """A place in a card file: a kind of entry (:data:`WHERE`), the entry's name as quoted in
    the message (or its number), and inside it an ability or a leader side's part."""

    kind: str
    name: str = ""
    ability: int | None = None
    side: str | None = None
    part: int | None = None

    def text(self) -> str:
        out = WHERE[self.kind].format(name=self.name)
        if self.ability is not None:
            out += f", ability {self.ability}"
        if self.side is not None:
            out += f", {self.side} part {self.part}"
        return out

    def with_ability(self, n: int) -> "Where":
        return Where(self.kind, self.name, n, self.side, self.part)

    def with_part(self, side: str, n: int) -> "Where":
        return Where(self.kind, self.name, self.ability, side, n)

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in (("kind", self.kind), ("name", self.name), ("ability", self.ability),
                                  ("side", self.side), ("part", self.part)) if v not in (None, "")}


@dataclass(frozen=True)
class Problem:
    """One problem of a card file: where (None: the whole file or the sets), a code of
    :data:`MESSAGES`, and the message's arguments."""

    where: Where | None
    code: str
    args: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.code in EXAMPLES and "example" not in self.args:
            object.__setattr__(self, "args", {**self.args, "example": EXAMPLES[self.code]})

    def text(self) -> str:
        """The problem in English, as :class:`CatalogueError` lists it."""
        where = self.where.text() if self.where else ""
        msg = MESSAGES[self.code]
        if "{where}" in msg:
            return msg.format(where=where, **self.args)
        msg = msg.format(**self.args)
        return f"{where}: {msg}" if where else msg

    def as_dict(self) -> dict[str, Any]:
        """The problem as data for a page: ``{"check", "args", "where"}``."""
        return {"check": self.code, "args": dict(self.args),
                **({"where": self.where.as_dict()} if self.where else {})}


def quoted(name: Any, number: int, hash_sign: bool = True) -> str:
    """How the checker names an entry: its name quoted, else its number (``'#3'``)."""
    if name:
        return repr(name)
    return repr("#" + str(number)) if hash_sign else repr(number)


#: Examples of TOML the messages show (an argument: the same in every language).
EXAMPLES = {
    "symbols_not_table": "{ mana = 1 }",
    "provenance_not_table": '{ cost = "provisional" }',
    "ability_not_table": '{ trigger = "harvest", effect = "..." }',
    "vale_cost_not_table": "{ animal = 1, forest = 0, sky = 1, any = 0 }",
}

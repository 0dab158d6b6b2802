"""Build exact game situations for rule and ability tests.

    sc = Scenario(players=2)
    sc.player(0, field=["Cursed Land", "Aurora"], on_deck=["Blank"], deck=["Cursed Land", "Stag"])
    sc.game.apply_action("pass")

A card is given as a list of advancement names (slots are chosen automatically: the first
free slot of a printed copy, in sleeving order) or as a string for a single advancement;
"Blank" (or an empty list) is a blank card.  ``deck`` lists cards from the top down.
Cards of the player not placed anywhere go to the discard pile unless ``rest`` says
otherwise.  The scenario resets the turn to the start of ``current``'s Planting phase.
"""

from __future__ import annotations

from typing import Iterable

import mysticvale as mv
from mysticvale.engine.card_types import SLOTS
from mysticvale.engine.flow import run
from mysticvale.engine.state import Turn

CardSpec = str | Iterable[str]


class Scenario:
    def __init__(self, players: int = 2, seed: int = 0, sets=("base",), ruleset: str = "yucata",
                 current: int = 0, **kw) -> None:
        self.game = mv.new_game(players=players, seed=seed, sets=sets, ruleset=ruleset, **kw)
        st = self.state
        st.first_player = current
        for i, pl in enumerate(st.players):
            pl.star = i == current
        self.reset_turn(current)

    @property
    def state(self):
        return self.game.state

    def reset_turn(self, current: int, phase: str = "planting") -> None:
        st = self.state
        st.current = current
        st.turn = Turn(current, phase=phase)
        st.pending.clear()
        st.steps.clear()
        self.invalidate()

    def invalidate(self) -> None:
        self.game._legal = None
        self.state.memo.clear()

    # -- cards ---------------------------------------------------------------------
    def layers(self, spec: CardSpec) -> tuple[int, ...]:
        cat = self.state.cat
        names = [spec] if isinstance(spec, str) else list(spec)
        layers: tuple[int, ...] = ()
        for name in names:
            if name == "Blank":
                continue
            t = cat.advancements[name]
            copies = [cat.copy_index[f"{name}@{'+'.join(s for s in SLOTS if s in slots)}"] for slots in t.copies]
            # An eclipse advancement "fits" anywhere because it may go under (Twilight Garden):
            # prefer a copy whose slots are free, as a player sleeving on top would.
            free = [c for c in copies if not any(cat.copies[c].slots & cat.copies[layers[i]].slots
                                                  for i in cat.stats(layers).active_layers)]
            for copy in (free + copies if t.eclipse else copies):
                if cat.fits(layers, copy):
                    from mysticvale.engine.harvest import sleeve_layers
                    layers = sleeve_layers(self.state, layers, copy)
                    break
            else:
                raise ValueError(f"no free slot for {name} on {names}")
        return layers

    def player(self, p: int, *, field: list[CardSpec] = (), on_deck: CardSpec | None = None,
               deck: list[CardSpec] = (), discard: list[CardSpec] = (), rest: str = "discard",
               vales: list[str] = (), mana_token: bool | None = None) -> dict[str, list[int]]:
        """Lay out player ``p``'s 20 cards; returns the card ids per zone."""
        st = self.state
        pl = st.players[p]
        ids = sorted(c for c in range(len(st.cards)) if st.owner[c] == p)
        pool = list(ids)
        out: dict[str, list[int]] = {"field": [], "on_deck": [], "deck": [], "discard": []}

        def place(spec: CardSpec) -> int:
            c = pool.pop(0)
            st.cards[c] = self.layers(spec)
            return c

        out["field"] = [place(s) for s in field]
        if on_deck is not None:
            out["on_deck"] = [place(on_deck)]
        out["deck"] = [place(s) for s in deck]
        out["discard"] = [place(s) for s in discard]
        for c in pool:
            st.cards[c] = ()
        pl.field = list(out["field"])
        pl.on_deck = out["on_deck"][0] if out["on_deck"] else None
        deck_ids = list(reversed(out["deck"]))  # top of deck is the end of the list
        if rest == "deck":
            pl.deck = list(pool) + deck_ids
            pl.discard = list(out["discard"])
        else:
            pl.deck = deck_ids
            pl.discard = list(out["discard"]) + list(pool)
        out["rest"] = list(pool)
        pl.known_top = []
        if vales:
            self.give_vales(p, vales)
        if mana_token is not None:
            pl.mana_token_active = mana_token
        self.invalidate()
        return out

    def give_vales(self, p: int, names: list[str]) -> list[int]:
        """Move vale cards of these names (from wherever they are) to player ``p``."""
        st = self.state
        got = []
        for name in names:
            ti = st.cat.vale_index[name]
            v = next(i for i, t in enumerate(st.vale_types) if t == ti)
            for lvl in st.vale_decks:
                if v in st.vale_decks[lvl]:
                    st.vale_decks[lvl].remove(v)
            for lvl in st.vale_rows:
                st.vale_rows[lvl] = [None if x == v else x for x in st.vale_rows[lvl]]
            for q in st.players:
                if v in q.vales:
                    q.vales.remove(v)
            st.players[p].vales.append(v)
            got.append(v)
        self.invalidate()
        return got

    def vale_id(self, name: str) -> int:
        """The id of the (first) vale card called ``name``."""
        st = self.state
        ti = st.cat.vale_index[name]
        return next(i for i, t in enumerate(st.vale_types) if t == ti)

    def put_vale_in_row(self, level: int, pos: int, name: str) -> int:
        """Put the vale ``name`` at position ``pos`` (1-based) of the level-``level`` row; the
        vale it displaces takes its old place (a deck or a row), so every vale stays somewhere."""
        st = self.state
        v = self.vale_id(name)
        displaced = st.vale_rows[level][pos - 1]
        for lvl in st.vale_decks:
            if v in st.vale_decks[lvl]:
                i = st.vale_decks[lvl].index(v)
                if displaced is None:
                    st.vale_decks[lvl].pop(i)
                else:
                    st.vale_decks[lvl][i] = displaced
                break
        else:
            for lvl in st.vale_rows:
                if v in st.vale_rows[lvl]:
                    st.vale_rows[lvl][st.vale_rows[lvl].index(v)] = displaced
                    break
            else:
                raise ValueError(f"{name} is not in a vale deck or row")
        st.vale_rows[level][pos - 1] = v
        self.invalidate()
        return v

    def put_in_commons(self, level: int, pos: int, name: str, slot: str = "top") -> int:
        """Put a copy of advancement ``name`` at commons position (level, pos 1-based)."""
        st = self.state
        copy = st.cat.copy_id(name, slot)
        st.commons[level][pos - 1] = copy
        self.invalidate()
        return copy

    # -- driving -------------------------------------------------------------------
    def act(self, *actions: str) -> None:
        for a in actions:
            self.game.apply_action(a)

    def legal(self) -> list[str]:
        return [str(a) for a in self.game.legal_actions()]

    def run(self) -> None:
        run(self.state)
        self.invalidate()

"""A greedy heuristic bot that reads only its seat's observation.

How it plays (all from ``observe(seat)`` and the legal actions):

* **push / pass** from the exact chance that the next reveal spoils.  The bot knows the
  contents of its own deck (not the order), the cards on top whose order it knows, and
  that an empty deck is refilled by shuffling the discard pile.  It compares the value of
  harvesting now with the expected value of pushing, looking ``depth`` reveals ahead over
  the deck's distinct cards (drawing without replacement).
* **buys** by a value estimate: each advancement is worth its per-play value (mana, spirit
  and VP symbols; decay and growth through the spoil risk; an ability judged by what its
  cost says beyond its symbols) times the plays it can still get before the game ends,
  plus its end-of-game VP.  The bot plans the best one or two buys for its mana (using the
  mana token only when that buys something better) and the best vales for its spirits.
* **every pending decision** of the base game has a deliberate rule (order of abilities,
  spoil guards, Calm Weather, discarding a field card, searching the deck, sleeving).
  Decisions it has no rule for (other sets add new ones) are answered by a one-step
  lookahead: each answer is tried on a few determinized copies, the turn is played on
  with this bot's own rules, and the resulting position is scored by the same value
  function.  There is no silent random fallback.

Everything is seeded: the bot's own :class:`~mysticvale.engine.rng.Rng` only feeds the
determinizations of that lookahead, so the same seed and game give the same moves.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..cards.cost_model import advancement_value
from ..engine.actions import Action
from ..engine.harvest import can_pay  # the payment rule itself (each symbol pays once)
from ..engine.rng import Rng
from .base import SeatView

SPOIL_AT = 4                      # net decay that spoils (file 000)
SPIRITS = ("animal", "forest", "sky", "wild")

# Values are in final victory points (VP).  A mana at harvest time is worth about half a
# VP (9 mana buys a level-3 card of ~4-5 VP), a spirit about 1.4 VP (two buy a 3 VP vale).
MANA_VP = 0.5
SPIRIT_VP = 1.35
WILD_VP = 1.6
VP_SYMBOL_VP = 1.0
GUARDIAN_VP = 0.05
CURSE_VP = -1.0
#: What one decay showing on a card costs per play (the spoil risk it adds), and what a
#: growth saves.
DECAY_VP = 0.45
GROWTH_VP = 0.35
#: Harvest value of an active mana token kept for later.
TOKEN_VP = 0.4
#: Plays per round of one card: about 6 of 20 cards reach the field each turn.
PLAY_RATE = 0.3
#: Harvest verbs with a rule of their own; any other verb goes to the lookahead.
_HARVEST_VERBS = frozenset({"use", "token", "vale", "buy", "trade", "finish"})


def _spirits(card: dict) -> tuple[int, int, int, int]:
    s = card.get("spirits") or card.get("symbols") or {}
    return (int(s.get("animal", 0)), int(s.get("forest", 0)), int(s.get("sky", 0)), int(s.get("wild", 0)))


_MANA_ABILITY = re.compile(r"gain (\d+) mana for (each|every)", re.I)
_DISCOUNT = re.compile(r"costs? (\d+) less", re.I)


def ability_mana(texts: list[str]) -> float:
    """Harvest mana an ability text gives, roughly (Aurora, Magic Seed, ...)."""
    m = 0.0
    for t in texts:
        if _MANA_ABILITY.search(t):
            m += 2.0
    return m


class CardInfo:
    """What the greedy bot cares about in one card of a field or deck."""

    __slots__ = ("id", "mana", "spirits", "vp", "nd", "curse", "guardian", "play", "end")

    def __init__(self, view: dict) -> None:
        self.id = view.get("id")
        self.mana = view.get("mana", 0) + ability_mana(view.get("abilities", ()))
        self.spirits = _spirits(view)
        self.vp = view.get("vp", 0)
        self.nd = view.get("decay", 0) - view.get("growth", 0)    # net decay it shows
        self.curse = view.get("curse", 0)
        self.guardian = view.get("guardian", 0)
        a, f, s, w = self.spirits
        # Value of having this card in the field during a harvest (decay aside).
        self.play = (MANA_VP * self.mana + SPIRIT_VP * (a + f + s) + WILD_VP * w
                     + VP_SYMBOL_VP * self.vp + CURSE_VP * self.curse + GUARDIAN_VP * self.guardian)
        self.end = view.get("end_vp", 0) - view.get("neg_vp", 0)

    def key(self) -> tuple:
        return (self.mana, self.spirits, self.vp, self.nd, self.curse)


def rounds_left(obs: dict) -> float:
    """Expected rounds still to play, from the VP pool, the vale deck and the end trigger."""
    r = obs.get("_rounds_left")
    if r is None:
        r = obs["_rounds_left"] = _rounds_left(obs)
    return r


def _rounds_left(obs: dict) -> float:
    if obs.get("end_triggered") is not None or obs.get("over"):
        return 0.5
    n = len(obs["players"])
    rnd = max(1, obs.get("round", 1))
    drained = sum(p["vp_tokens"] for p in obs["players"]) - obs.get("vp_reserve_taken", 0)
    # VP tokens flow faster as decks improve: assume at least ~1 VP per player per round.
    rate = max(drained / rnd, 1.0 * n, 0.5)
    by_pool = obs.get("vp_pool", 0) / rate
    # The game also ends when the last level-2 vale enters the commons (yucata); the
    # level-1 row falls back to the level-2 deck, so both decks drain towards it.
    decks = obs.get("vale_decks", {})
    bought = sum(len(p["vales"]) for p in obs["players"])
    vale_rate = max(bought / rnd, 0.5 * n)
    by_vales = (decks.get("1", 0) + decks.get("2", 0)) / vale_rate
    if obs.get("ruleset") == "english":
        by_vales = 99.0
    # Rounded so that values computed from it stay cacheable within a turn.
    return round(max(0.5, min(by_pool, by_vales, 25.0)) * 4) / 4


class Greedy:
    """Push/pass by exact spoil odds, buys by value; deliberate answers to every decision.

    Options: ``depth`` (reveals looked ahead for push/pass, 1-3), ``samples``
    (determinizations per answer in the general lookahead).
    """

    name = "greedy"

    def __init__(self, seed: int = 0, depth: int = 2, samples: int = 2, mana_vp: float = MANA_VP,
                 spirit_vp: float = SPIRIT_VP, decay_vp: float = DECAY_VP, play_rate: float = PLAY_RATE) -> None:
        if depth not in (1, 2, 3):
            raise ValueError(f"greedy depth must be 1, 2 or 3, not {depth!r}")
        if samples < 1:
            raise ValueError(f"greedy samples must be at least 1, not {samples!r}")
        self.rng = Rng(seed)
        self.depth = depth
        self.samples = samples
        # Weights of the value estimate of advancements (tunable through the arena, e.g.
        # ``greedy:spirit_vp=1.6``).
        self.mana_vp, self.spirit_vp = float(mana_vp), float(spirit_vp)
        self.decay_vp, self.play_rate = float(decay_vp), float(play_rate)
        self._copies: dict[str, dict] = {}     # advancement label -> copy view (from the commons)
        self._in_lookahead = False
        self._value_cache: dict[tuple, float] = {}

    # -- entry point ----------------------------------------------------------------
    def act(self, view: SeatView) -> Action:
        legal = view.legal_actions()
        if not legal:
            raise ValueError("the bot was asked to act when its seat has nothing to do")
        if len(legal) == 1:
            return legal[0]
        obs = view.observe()
        return self.choose(view, obs, legal)

    def choose(self, view: SeatView, obs: dict, legal: list[Action]) -> Action:
        """The bot's action for this observation (``legal`` non-empty)."""
        self._remember(obs)
        pending = obs.get("pending")
        if pending is not None and pending.get("player") == view.seat:
            handler = getattr(self, f"_decide_{pending['kind']}", None)
            if handler is not None:
                a = handler(view, obs, legal)
                if a is not None:
                    return a
            return self.lookahead(view, obs, legal)
        verbs = {a.verb for a in legal}
        if verbs <= {"push", "pass"}:
            return self._push_or_pass(view, obs, legal)
        if obs["phase"] == "harvest":
            return self._harvest(view, obs, legal)
        return self.lookahead(view, obs, legal)

    def _remember(self, obs: dict) -> None:
        for row in obs["commons"].values():
            for c in row:
                if c is not None and c["label"] not in self._copies:
                    self._copies[c["label"]] = c

    # -- values ---------------------------------------------------------------------
    def copy_value(self, copy: dict, obs: dict) -> float:
        """Value (VP) of owning an advancement for the rest of the game."""
        key = (copy.get("label") or copy.get("name"), copy.get("cost"), rounds_left(obs))
        v = self._value_cache.get(key)
        if v is None:
            if len(self._value_cache) > 20000:
                self._value_cache.clear()
            v = self._value_cache[key] = self._copy_value(copy, obs)
        return v

    def _copy_value(self, copy: dict, obs: dict) -> float:
        sym = copy.get("symbols", {})
        a, f, s, w = (sym.get(k, 0) for k in SPIRITS)
        wild = self.spirit_vp * WILD_VP / SPIRIT_VP
        play = (self.mana_vp * sym.get("mana", 0) + self.spirit_vp * (a + f + s) + wild * w
                + VP_SYMBOL_VP * sym.get("vp", 0) + CURSE_VP * sym.get("curse", 0)
                + GUARDIAN_VP * sym.get("guardian", 0)
                - self.decay_vp * sym.get("decay", 0) + GROWTH_VP * sym.get("growth", 0))
        play_extra, end_extra = self._ability_extra(copy)
        play += play_extra
        plays = max(0.0, rounds_left(obs) - 1.0) * self.play_rate
        return plays * play + copy.get("end_vp", 0) - copy.get("neg_vp", 0) + end_extra

    def _ability_extra(self, copy: dict) -> tuple[float, float]:
        """(value per play, end-of-game VP) of an advancement's ability: what its cost says
        it is worth beyond its printed symbols (the cost model prices 1 mana per play at 2,
        cards/cost_model.py)."""
        text = copy.get("text", "")
        if not text or copy.get("kind") == "fertile_soil" or "Always available" in text:
            return 0.0, 0.0
        sym = copy.get("symbols", {})
        printed = advancement_value(dict(sym), copy.get("end_vp", 0), copy.get("neg_vp", 0), 0.0)
        extra = max(0.0, copy.get("cost", 0) / 2.0 - printed)
        if "end of game" in text.lower() or "end of the game" in text.lower():
            return 0.0, extra * 1.2
        return extra * self.mana_vp * 1.6, 0.0

    def _card_extra(self, card: dict) -> tuple[float, float]:
        """Ability value of the advancements on a card, from the copies seen in the commons
        (mana abilities are already counted as mana by :class:`CardInfo`)."""
        play = end = 0.0
        covered = card.get("covered", ())
        for label in card.get("advancements", ()):
            c = self._copies.get(label)
            if c is None or label in covered or _MANA_ABILITY.search(c.get("text", "")):
                continue
            p, e = self._ability_extra(c)
            play += p
            end += e
        return play, end

    def vale_value(self, vale: dict) -> float:
        v = vale.get("end_vp", 0) - vale.get("neg_vp", 0)
        if vale.get("text"):
            v += 0.5
        return v

    def card_value(self, card: dict, obs: dict) -> float:
        """Value (VP) of owning one card (its future plays and its end-of-game VP)."""
        ci = CardInfo(card)
        plays = rounds_left(obs) * self.play_rate
        pe, ee = self._card_extra(card) if card.get("advancements") else (0.0, 0.0)
        return plays * (ci.play + pe - self.decay_vp * max(0, ci.nd) + GROWTH_VP * max(0, -ci.nd)) + ci.end + ee

    def position_value(self, obs: dict, seat: int, relative: bool = True) -> float:
        """A seat's position in VP: points in hand plus what its cards will still earn,
        minus (when ``relative``) the visible points of the strongest opponent."""
        me = obs["players"][seat]
        v = float(me["vp_tokens"] - me["curse_tokens"])
        v += sum(self.vale_value(x) for x in me["vales"])
        cards = list(me.get("deck", [])) + list(me.get("discard", [])) + list(me["field"])
        if me["on_deck"] is not None:
            cards.append(me["on_deck"])
        v += sum(self.card_value(c, obs) for c in cards)
        if me.get("mana_token_active"):
            v += TOKEN_VP
        t = obs["turn"]
        if t.get("player") == seat and obs["phase"] == "harvest" and "mana" in t:
            free = self._free_spirits(obs)
            v += self.buy_table(obs, 2 - t["advancement_buys"])[max(0, min(t["mana"], 40))]
            v += self.vale_plan_value(obs, free, t["vale_limit"] - t["vale_buys"])
        if t.get("player") == seat and obs["phase"] == "planting":
            # The harvest the field would give if the seat passed now.
            v += self.harvest_value([CardInfo(c) for c in me["field"]], obs, self.buy_table(obs, 2),
                                    self._vales(obs))
        for label in t.get("bought", []) if t.get("player") == seat else []:
            c = self._copies.get(label)
            if c is not None:
                v += self.copy_value(c, obs)
        if not relative:
            return v
        others = [self._visible_points(p) for i, p in enumerate(obs["players"]) if i != seat]
        if obs.get("over") and obs.get("scores"):
            sc = obs["scores"]
            best_other = max(sc[i]["total"] for i in range(len(sc)) if i != seat)
            return 100.0 * (sc[seat]["total"] - best_other)
        return v - (max(others) if others else 0.0)

    def _visible_points(self, p: dict) -> float:
        v = p["vp_tokens"] - p["curse_tokens"] + sum(self.vale_value(x) for x in p["vales"])
        return float(v)

    # -- harvest value of a field ---------------------------------------------------
    def buy_table(self, obs: dict, buys: int) -> list[float]:
        """best[m]: value of the best advancement buys (at most ``buys``) with m mana."""
        cache = obs.setdefault("_buy_tables", {})
        if buys not in cache:
            cache[buys] = self._buy_table(obs, buys)
        return cache[buys]

    def _buy_table(self, obs: dict, buys: int) -> list[float]:
        opts = []
        for row in obs["commons"].values():
            for c in row:
                if c is not None:
                    opts.append((c["cost"], self.copy_value(c, obs)))
        soil_cost = obs.get("fertile_soil_cost", 2)
        if any(obs["fertile_soil"].values()):
            soil = {"symbols": {"mana": 1}, "cost": soil_cost, "kind": "fertile_soil"}
            sv = self.copy_value(soil, obs)
            opts.append((soil_cost, sv))
            opts.append((soil_cost, sv))
        return _buy_table(tuple(sorted(opts)), max(0, buys))

    def _free_spirits(self, obs: dict) -> tuple[list[int], list[int]]:
        t = obs["turn"]
        have = [t["spirits"][k] for k in SPIRITS]
        spent = [t["spirits_spent"][k] for k in ("animal", "forest", "sky", "any")]
        return have, spent

    def vale_plan_value(self, obs: dict, free: tuple[list[int], list[int]], buys: int,
                        trade: bool | None = None) -> float:
        """Best value of vales (at most ``buys``) payable from spirits, plus traded VP."""
        have, spent = free
        vales = [v for row in obs["vale_rows"].values() for v in row if v is not None]
        if trade is None:
            trade = obs.get("ruleset") == "yucata"
        return _vale_plan(tuple(have), tuple(spent),
                          tuple((tuple(v["cost"][k] for k in ("animal", "forest", "sky", "any")),
                                 self.vale_value(v)) for v in vales), max(0, buys), trade)

    def harvest_value(self, cards: list[CardInfo], obs: dict, table: list[float],
                      vales: tuple) -> float:
        """Value of harvesting with these cards in the field."""
        mana, a, f, s, w, vp, curse = _aggregate(cards)
        m = max(0, min(int(mana), len(table) - 1))
        return table[m] + vp + CURSE_VP * curse + _vale_plan(
            (a, f, s, w), (0, 0, 0, 0), vales, 2, obs.get("ruleset") == "yucata")

    # -- push or pass ---------------------------------------------------------------
    def _push_or_pass(self, view: SeatView, obs: dict, legal: list[Action]) -> Action:
        names = {a.verb: a for a in legal}
        if "push" not in names:
            return names["pass"]
        me = obs["players"][view.seat]
        field = [CardInfo(c) for c in me["field"]]
        od = CardInfo(me["on_deck"])
        pool, known = self._next_cards(me)
        table = self.buy_table(obs, 2)
        vales = self._vales(obs)
        guard = self._has_guard(me)
        # Decay showing now counts the field and the on-deck card; pushing keeps it and
        # reveals the next card.
        decay = me["decay"]
        now = self.harvest_value(field, obs, table, vales)
        push = self._expect_push(field + [od], decay, pool, known, obs, table, vales, self.depth, guard)
        return names["push"] if push > now else names["pass"]

    def _vales(self, obs: dict) -> tuple:
        vales = [v for row in obs["vale_rows"].values() for v in row if v is not None]
        return tuple((tuple(v["cost"][k] for k in ("animal", "forest", "sky", "any")), self.vale_value(v))
                     for v in vales)

    def _has_guard(self, me: dict) -> bool:
        return any("instead of spoiling" in t.lower() or "would spoil" in t.lower()
                   for c in me["field"] for t in c.get("abilities", ()))

    def _next_cards(self, me: dict) -> tuple[list[CardInfo], list[CardInfo]]:
        """(cards the next reveal is drawn from uniformly, cards known to come first in order)."""
        deck = me.get("deck", [])
        by_id = {c["id"]: c for c in deck}
        known = [CardInfo(by_id[i]) for i in reversed(me.get("known_top", [])) if i in by_id]
        known_ids = {c.id for c in known}
        pool = [CardInfo(c) for c in deck if c["id"] not in known_ids]
        if not deck:
            # An empty deck is refilled by shuffling the discard pile (file 000).
            pool = [CardInfo(c) for c in me.get("discard", [])]
        return pool, known

    def _expect_push(self, field: list[CardInfo], decay: int, pool: list[CardInfo],
                     known: list[CardInfo], obs: dict, table: list[float], vales: tuple,
                     depth: int, guard: bool) -> float:
        """Expected value of pushing (the field already holds the pushed card): the next
        card is revealed; if decay reaches 4 the turn spoils, else the bot may push again."""
        agg = _aggregate(field)
        memo: dict[tuple, float] = {}
        yucata = obs.get("ruleset") == "yucata"

        def hv(ag: tuple) -> float:
            v = memo.get(ag)
            if v is None:
                m = max(0, min(int(ag[0]), len(table) - 1))
                v = table[m] + ag[5] + CURSE_VP * ag[6] + _vale_plan(ag[1:5], (0, 0, 0, 0), vales, 2, yucata)
                memo[ag] = v
            return v

        return self._push_rec(agg, decay, pool, known, depth, guard, hv)

    def _push_rec(self, agg: tuple, decay: int, pool: list[CardInfo], known: list[CardInfo],
                  depth: int, guard: bool, hv) -> float:
        stop = hv(agg)
        if known:
            outcomes = [(1.0, known[0], pool, known[1:])]
        elif pool:
            groups: dict[tuple, list[CardInfo]] = {}
            for c in pool:
                groups.setdefault(c.key(), []).append(c)
            n = len(pool)
            outcomes = []
            for cards in groups.values():
                if depth > 1:
                    rest = list(pool)
                    rest.remove(cards[0])
                else:
                    rest = pool
                outcomes.append((len(cards) / n, cards[0], rest, []))
        else:
            # Nothing left to reveal: no spoil risk, and no more pushes.
            return stop
        total = 0.0
        for prob, nxt, rest, kn in outcomes:
            d = decay + nxt.nd
            if d >= SPOIL_AT:
                if guard:
                    # A guard discards the on-deck card and reveals another once: count it
                    # as one more draw at the old decay.
                    safe = sum(1 for c in rest if decay + c.nd < SPOIL_AT) / max(1, len(rest))
                    v = safe * stop + (1 - safe) * TOKEN_VP
                else:
                    v = TOKEN_VP
            elif depth > 1:
                go = self._push_rec(_add(agg, nxt), d, rest, kn, depth - 1, guard, hv)
                v = stop if stop > go else go
            else:
                v = stop
            total += prob * v
        return total

    # -- harvest --------------------------------------------------------------------
    def _harvest(self, view: SeatView, obs: dict, legal: list[Action]) -> Action:
        by_verb: dict[str, list[Action]] = {}
        for a in legal:
            by_verb.setdefault(a.verb, []).append(a)
        # 1. Harvest abilities first: they add resources.  Each is tried on a determinized
        #    copy and used only if the position does not get worse.
        for a in by_verb.get("use", []):
            if self._use_is_good(view, obs, a):
                return a
        t = obs["turn"]
        # 2. Vales with spirits (vale buys do not compete with advancement buys).
        vale_actions = by_verb.get("vale", [])
        if vale_actions:
            best = self._best_vale(obs, vale_actions)
            if best is not None:
                return best
        # 3. Advancements with mana, the mana token only when it buys something better.
        buys = by_verb.get("buy", [])
        left = 2 - t["advancement_buys"]
        mana = t["mana"]
        if buys or "token" in by_verb:
            plan_now, first = self._best_buy(obs, buys, mana, left)
            if "token" in by_verb:
                plan_tok, _ = self._best_buy(obs, buys, mana + 1, left, allow_over=True)
                if plan_tok - plan_now > TOKEN_VP:
                    return by_verb["token"][0]
            if first is not None:
                return first
        # 4. Actions this bot has no rule for (abilities of other sets, leaders, ...):
        #    each is weighed against finishing by the determinized lookahead.
        unknown = [a for a in legal if a.verb not in _HARVEST_VERBS]
        if unknown and not self._in_lookahead and "finish" in by_verb:
            choice = self.lookahead(view, obs, unknown + by_verb["finish"])
            if choice.verb != "finish":
                return choice
        # 5. Spare spirits for VP (yucata).
        if "trade" in by_verb:
            return by_verb["trade"][0]
        return by_verb.get("finish", legal[-1:])[0]

    def _use_is_good(self, view: SeatView, obs: dict, a: Action) -> bool:
        if self._in_lookahead or self._pure_gain(obs, view.seat, a.args[0] if a.args else ""):
            return True
        before = self.position_value(obs, view.seat)
        g = view.determinize(self.rng)
        g.apply_action(a)
        return self.position_value(g.observe(view.seat), view.seat) >= before - 1e-9

    _COSTLY = ("discard", "lose", "pay", "remove", "return", "opponent", "each player", "instead")

    def _pure_gain(self, obs: dict, seat: int, ref: str) -> bool:
        """Is the ability at ``ref`` plainly a gain ("gain 1 mana for ...") with no cost or
        choice?  Such abilities are used without a lookahead."""
        me = obs["players"][seat]
        texts: list[str] = []
        if ref.startswith("vale."):
            try:
                texts = [me["vales"][int(ref.split(".")[1]) - 1].get("text", "")]
            except (IndexError, ValueError):
                return False
        elif ref.startswith("#"):
            cid = ref[1:].split(".")[0]
            card = next((c for c in me["field"] if str(c["id"]) == cid), None)
            if card is None:
                return False
            # Ability texts read "Name: Harvest: ..."; look at the text, not the name.
            texts = [t.split(": ", 1)[-1] for t in card.get("abilities", ())]
            texts = [t for t in texts if t.lower().startswith("harvest")]
        if not texts:
            return False
        low = [t.lower() for t in texts]
        return all("gain" in t and not any(w in t for w in self._COSTLY) for t in low)

    def _market_copy(self, obs: dict, market: str) -> dict | None:
        if market.startswith("soil."):
            return {"symbols": {"mana": 1}, "cost": obs.get("fertile_soil_cost", 2), "kind": "fertile_soil",
                    "label": f"Fertile Soil@{market[5:]}"}
        try:
            level, pos = market.split(".")
            return obs["commons"][level][int(pos) - 1]
        except (ValueError, KeyError, IndexError):
            return None

    def _discount(self, obs: dict, seat: int, target: str) -> int:
        for c in obs["players"][seat]["field"]:
            if f"#{c['id']}" == target:
                for t in c.get("abilities", ()):
                    m = _DISCOUNT.search(t)
                    if m:
                        return int(m.group(1))
        return 1

    def _best_buy(self, obs: dict, buys: list[Action], mana: int, left: int,
                  allow_over: bool = False) -> tuple[float, Action | None]:
        """(value of the best plan of at most ``left`` buys, its first buy action)."""
        seat = obs["viewer"]
        opts: list[tuple[int, float, Action, str]] = []
        for a in buys:
            copy = self._market_copy(obs, a.args[0])
            if copy is None:
                continue
            price = copy["cost"]
            if len(a.args) == 3:
                price = max(0, price - self._discount(obs, seat, a.args[2]))
            opts.append((price, self.copy_value(copy, obs), a, a.args[0]))
        if allow_over:
            # With one more mana, offers priced one above the current mana count too: the
            # engine lists only what is affordable now, so add the commons directly.
            listed = {o[3] for o in opts}
            for level, row in obs["commons"].items():
                for i, c in enumerate(row):
                    m = f"{level}.{i + 1}"
                    if c is not None and m not in listed and c["cost"] <= mana:
                        opts.append((c["cost"], self.copy_value(c, obs), Action("buy", (m,)), m))
        best, first = 0.0, None
        for i, (p1, v1, a1, m1) in enumerate(opts):
            if p1 > mana or v1 <= 0:
                continue
            if v1 > best:
                best, first = v1, a1
            if left >= 2:
                for p2, v2, a2, m2 in opts[i + 1:]:
                    if m2 == m1 and not m1.startswith("soil."):
                        continue
                    if p1 + p2 <= mana and v2 > 0 and v1 + v2 > best:
                        best, first = v1 + v2, (a1 if v1 >= v2 else a2)
        return best, first

    def _best_vale(self, obs: dict, actions: list[Action]) -> Action | None:
        have, spent = self._free_spirits(obs)
        t = obs["turn"]
        left = t["vale_limit"] - t["vale_buys"]
        trade = obs.get("ruleset") == "yucata"
        no_vale = _vale_plan(tuple(have), tuple(spent), (), 0, trade)
        best, best_a = no_vale, None
        for a in actions:
            level, pos = a.args[0].split(".")
            v = obs["vale_rows"][level][int(pos) - 1]
            cost = [v["cost"][k] for k in ("animal", "forest", "sky", "any")]
            spent2 = [spent[k] + cost[k] for k in range(4)]
            val = self.vale_value(v) + self.vale_plan_value(obs, (have, spent2), left - 1, trade)
            if val > best + 1e-9:
                best, best_a = val, a
        return best_a

    # -- pending decisions of the base game ----------------------------------------
    def _decide_order(self, view: SeatView, obs: dict, legal: list[Action]) -> Action | None:
        # Which simultaneous ability resolves first can matter (look at the top card
        # before discarding a field card, ...): try each order on determinized copies.
        return self.lookahead(view, obs, legal)

    def _decide_spoil_guard(self, view: SeatView, obs: dict, legal: list[Action]) -> Action | None:
        # Peacekeeper Druid: discarding the on-deck card instead of spoiling never loses.
        for a in legal:
            if a.verb == "guard" and a.args and a.args[0].startswith("#"):
                return a
        return None   # Aether Tree costs a vale's VP: weigh it with the lookahead

    def _decide_look_top(self, view: SeatView, obs: dict, legal: list[Action]) -> Action | None:
        pending = obs["pending"]
        cards = pending.get("cards") or []
        if not cards:
            return None
        me = obs["players"][view.seat]
        top = CardInfo(cards[0])
        # The card looked at is the next one revealed (Calm Weather resolves before the
        # reveal): discard it if it would spoil, or if it is worse than an average draw.
        if me["decay"] + top.nd >= SPOIL_AT:
            return _find(legal, "discard")
        rest = [CardInfo(c) for c in me.get("deck", []) if c["id"] != top.id]
        avg = sum(self._draw_value(c) for c in rest) / len(rest) if rest else 0.0
        return _find(legal, "keep") if self._draw_value(top) >= avg else _find(legal, "discard")

    def _draw_value(self, c: CardInfo) -> float:
        return c.play - DECAY_VP * 2 * max(0, c.nd) + GROWTH_VP * max(0, -c.nd)

    def _decide_discard_field(self, view: SeatView, obs: dict, legal: list[Action]) -> Action | None:
        # The on-deck card is revealed after this ability: compare the expected value of
        # that reveal with each field card discarded (or none).
        me = obs["players"][view.seat]
        field = [CardInfo(c) for c in me["field"]]
        pool, known = self._next_cards(me)
        table = self.buy_table(obs, 2)
        vales = self._vales(obs)
        guard = self._has_guard(me)
        best, best_a = None, None
        for a in legal:
            if a.verb == "skip":
                f = field
            elif a.verb == "discard":
                cid = int(a.args[0][1:])
                f = [c for c in field if c.id != cid]
            else:
                continue
            d = sum(c.nd for c in f)
            v = self._expect_push(f, d, pool, known, obs, table, vales, 1, guard)
            if best is None or v > best + 1e-9 or (a.verb == "skip" and v >= best - 1e-9):
                best, best_a = v, a
        return best_a

    def _decide_search_deck(self, view: SeatView, obs: dict, legal: list[Action]) -> Action | None:
        me = obs["players"][view.seat]
        deck = {c["id"]: CardInfo(c) for c in me.get("deck", [])}
        if not deck:
            return None
        avg = sum(self._draw_value(c) for c in deck.values()) / len(deck)
        worst, worst_a = None, None
        for a in legal:
            if a.verb == "discard":
                c = deck.get(int(a.args[0][1:]))
                if c is not None and (worst is None or self._draw_value(c) < worst):
                    worst, worst_a = self._draw_value(c), a
        # Thinning the deck for this cycle helps only if the card is below an average draw.
        if worst_a is not None and worst < avg:
            return worst_a
        return _find(legal, "skip") or worst_a

    def _decide_sleeve(self, view: SeatView, obs: dict, legal: list[Action]) -> Action | None:
        bought = obs["turn"].get("bought") or []
        copy = self._copies.get(bought[0]) if bought else None
        if copy is None and bought and bought[0].startswith("Fertile Soil"):
            copy = {"symbols": {"mana": 1}, "text": "", "slots": [bought[0].split("@")[-1]]}
        if copy is None:
            return None
        field = {c["id"]: c for c in obs["players"][view.seat]["field"]}
        text = (copy.get("text") or "").lower()
        best, best_a = None, None
        for a in legal:
            card = field.get(int(a.args[0][1:]))
            if card is None:
                continue
            score = _sleeve_score(card, copy, text)
            if best is None or score > best:
                best, best_a = score, a
        return best_a

    # -- the general answer: one-step lookahead -------------------------------------
    def lookahead(self, view: SeatView, obs: dict, legal: list[Action]) -> Action:
        """Try each legal action on ``samples`` determinized copies, play the rest of the
        turn with this bot's rules, and pick the best average position value."""
        if self._in_lookahead:
            return _fallback(legal)
        seat = view.seat
        best, best_a = None, legal[0]
        self._in_lookahead = True
        try:
            for a in legal:
                total = 0.0
                for _ in range(self.samples):
                    g = view.determinize(self.rng)
                    g.apply_action(a)
                    steps = 0
                    # Play on with this bot's own rules until the seat's part is done.
                    while not g.is_over() and g.current_player == seat and steps < 40:
                        sv = SeatView(g, seat)
                        lg = sv.legal_actions()
                        g.apply_action(self.choose(sv, sv.observe(), lg) if len(lg) > 1 else lg[0])
                        steps += 1
                    total += self.position_value(g.observe(seat), seat)
                v = total / self.samples
                if best is None or v > best + 1e-9:
                    best, best_a = v, a
        finally:
            self._in_lookahead = False
        return best_a


def _aggregate(cards: list[CardInfo]) -> tuple:
    """(mana, animal, forest, sky, wild, vp, curse) summed over cards."""
    m = 0.0
    a = f = s = w = vp = cu = 0
    for c in cards:
        m += c.mana
        ca, cf, cs, cw = c.spirits
        a += ca
        f += cf
        s += cs
        w += cw
        vp += c.vp
        cu += c.curse
    return (m, a, f, s, w, vp, cu)


def _add(agg: tuple, c: CardInfo) -> tuple:
    ca, cf, cs, cw = c.spirits
    return (agg[0] + c.mana, agg[1] + ca, agg[2] + cf, agg[3] + cs, agg[4] + cw, agg[5] + c.vp,
            agg[6] + c.curse)


def _fallback(legal: list[Action]) -> Action:
    """Inside a lookahead, a decision without a rule: prefer declining (skip / keep /
    pass / finish), else the first listed answer.  Deterministic, never random."""
    for verb in ("skip", "keep", "finish", "pass", "spoil"):
        a = _find(legal, verb)
        if a is not None:
            return a
    return legal[0]


def _find(legal: list[Action], verb: str) -> Action | None:
    for a in legal:
        if a.verb == verb:
            return a
    return None


def _sleeve_score(card: dict, copy: dict, text: str) -> float:
    """How good a field card is as the home of an advancement."""
    decay = card.get("decay", 0)
    growth = card.get("growth", 0)
    free = len(card.get("free_slots", ()))
    sym = copy.get("symbols", {})
    score = 0.0
    if "no decay" in text:
        score += 3.0 * decay                     # Lifebringer Seed cancels a card's decay
    elif "no more than" in text and "decay" in text:
        score += 3.0 * max(0, decay - 1)
    elif "for each" in text and "on this card" in text:
        # Ongoing bonuses per symbol on this card (Grovetender, Dawnsinger).
        for k in ("guardian", "sky", "animal", "forest", "mana"):
            if k in text:
                score += 2.0 * (card.get(k, 0) if k in ("guardian", "mana") else card["spirits"].get(k, 0))
    if sym.get("decay", 0) > 0:
        # A decay goes best where it is cancelled or where growth already is.
        score += 1.0 * growth - 0.5 * decay
    if sym.get("growth", 0) > 0:
        score += 0.5 * decay
    # Keep empty cards for later buys: pack onto cards with fewer free slots, and prefer
    # cards that already carry value so good cards come up together.
    score -= 0.1 * free
    return score


@lru_cache(maxsize=4096)
def _buy_table(opts: tuple[tuple[int, float], ...], buys: int) -> list[float]:
    """best[m] for m = 0..40: the best total value of at most ``buys`` (1 or 2) of the
    priced options (cost, value) costing m mana or less."""
    top = 41
    exact = [0.0] * top
    if buys <= 0:
        return exact
    n = len(opts)
    for i in range(n):
        p1, v1 = opts[i]
        if p1 < top and v1 > exact[p1]:
            exact[p1] = v1
        if buys >= 2:
            for j in range(i + 1, n):
                p = p1 + opts[j][0]
                if p >= top:
                    break
                v = v1 + opts[j][1]
                if v > exact[p]:
                    exact[p] = v
    best = [0.0] * top
    run = 0.0
    for m in range(top):
        if exact[m] > run:
            run = exact[m]
        best[m] = run
    return best


@lru_cache(maxsize=65536)
def _vale_plan(have: tuple[int, ...], spent: tuple[int, ...], vales: tuple, buys: int, trade: bool) -> float:
    """Best value of up to ``buys`` vales payable from ``have`` after ``spent``, plus a VP
    for every 3 spare spirits when trading is allowed."""
    best = 0.0
    if trade:
        n = 0
        while can_pay(have, spent[:3] + (spent[3] + 3 * (n + 1),)):
            n += 1
        best = float(n)
    if buys <= 0:
        return best
    for i, (cost, val) in enumerate(vales):
        need = tuple(spent[k] + cost[k] for k in range(4))
        if can_pay(have, need):
            v = val + _vale_plan(have, need, vales[i + 1:], buys - 1, trade)
            if v > best:
                best = v
    return best


def _register() -> None:
    from . import register
    register("greedy", Greedy)


_register()

__all__ = ["Greedy", "CardInfo", "can_pay", "rounds_left"]

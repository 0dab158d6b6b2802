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
  spoil guards, Calm Weather, discarding a field card, searching the deck, sleeving, and
  the German rules' early end of Prep, from the same spoil odds as push / pass).
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
from ..engine.rulesets import RULESETS, RuleSet
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
    """What the greedy bot cares about in one card of a field or deck (read-only).

    Build one with :func:`card_info`, which reuses the info of a card view already seen.
    """

    __slots__ = ("id", "mana", "spirits", "vp", "nd", "curse", "guardian", "play", "end", "k", "guard",
                 "view")

    def __init__(self, view: dict) -> None:
        self.view = view
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
        # What a reveal of this card changes for push/pass: cards with equal keys are one
        # outcome of the spoil expectation.
        self.k = (self.mana, self.spirits, self.vp, self.nd, self.curse)
        # Does it have an ability that acts when the turn would spoil (Peacekeeper Druid)?
        self.guard = any("instead of spoiling" in t.lower() or "would spoil" in t.lower()
                         for t in view.get("abilities", ()))


#: id(card view) -> its CardInfo.  The engine builds each card view once and shares it
#: between observations (views are read-only data), so most cards of an observation have
#: been seen before.  Each info keeps its view alive (``info.view``), so no other object can
#: take that id while the entry exists: an id found here is that very view.
_INFOS: dict[int, CardInfo] = {}
_INFOS_MAX = 50000


def card_info(view: dict) -> CardInfo:
    """The :class:`CardInfo` of a card view (cached by the view's identity)."""
    info = _INFOS.get(id(view))
    if info is None:
        if len(_INFOS) >= _INFOS_MAX:
            _INFOS.clear()
        info = _INFOS[id(view)] = CardInfo(view)
    return info


def card_infos(views: list[dict]) -> list[CardInfo]:
    """:func:`card_info` of each view, in order."""
    get = _INFOS.get
    return [get(id(v)) or card_info(v) for v in views]


#: [(observation, its rounds_left)]: the last observation asked about.  It is held (so its
#: id stays its own) and compared by identity; the observation itself is never written to.
_LAST_ROUNDS: list = [None]


#: (bot class, mana_vp, spirit_vp, decay_vp) -> {id(copy view): (the view, its
#: Greedy._copy_parts)}.
_PARTS: dict[tuple, dict[int, tuple[dict, tuple]]] = {}
#: Market notation ("2.3") -> (level, index in the row), or () if it is not one.
_MARKETS: dict[str, tuple] = {}
#: (cost, slot) -> Fertile Soil stand-in copy (Greedy._soil).
_SOILS: dict[tuple, dict] = {}


_DEFAULT_RULES = RULESETS["yucata"]


def _rules(obs: dict) -> RuleSet:
    """The rule set the observed game is played with (public: ``obs["ruleset"]``)."""
    return RULESETS.get(obs.get("ruleset")) or _DEFAULT_RULES


def _trades(obs: dict) -> bool:
    """May spare spirit symbols be traded 3 for 1 VP in this game (yucata, german)?"""
    return _rules(obs).spirit_trade


def rounds_left(obs: dict) -> float:
    """Expected rounds still to play, from the VP pool, the vale deck and the end trigger."""
    last = _LAST_ROUNDS[0]    # one (observation, value) pair, replaced whole: thread-safe
    if last is not None and last[0] is obs:
        return last[1]
    value = _rounds_left(obs)
    _LAST_ROUNDS[0] = (obs, value)
    return value


def _rounds_left(obs: dict) -> float:
    if obs.get("end_triggered") is not None or obs.get("over"):
        return 0.5
    players = obs["players"]
    n = len(players)
    rnd = max(1, obs.get("round", 1))
    drained = bought = 0
    for p in players:
        drained += p["vp_tokens"]
        bought += len(p["vales"])
    drained -= obs.get("vp_reserve_taken", 0)
    # VP tokens flow faster as decks improve: assume at least ~1 VP per player per round.
    rate = max(drained / rnd, 1.0 * n, 0.5)
    by_pool = obs.get("vp_pool", 0) / rate
    # The game also ends when the last level-2 vale enters the commons (yucata, german); the
    # level-1 row falls back to the level-2 deck, so both decks drain towards it.
    decks = obs.get("vale_decks", {})
    vale_rate = max(bought / rnd, 0.5 * n)
    by_vales = (decks.get("1", 0) + decks.get("2", 0)) / vale_rate
    if not _rules(obs).end_on_last_level2_vale:
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
        # card_value's parts by card view (see _card_parts), valid for one state of _copies.
        self._card_cache: dict[int, tuple[dict, float, float, float]] = {}
        self._card_cache_key: tuple = (None, 0)
        # Advancement values by copy (see _copy_parts), shared by the bots of equal weights.
        self._parts = _PARTS.setdefault((type(self), self.mana_vp, self.spirit_vp, self.decay_vp), {})
        # Caches of values that depend only on shared, read-only views of the observation
        # (commons, vale rows); each entry holds the views its key names by id, so the ids
        # cannot be reused while the entry exists.  See buy_table, _vales, _harvest_fn.
        self._tables: dict[tuple, tuple[list, list[float]]] = {}
        self._vale_offers: dict[tuple, tuple[list, tuple]] = {}
        self._vale_entries: dict[int, tuple[dict, tuple]] = {}
        self._obs_tables: tuple = (None, {})     # (observation, {buys: table}) of the last one
        self._hv: tuple = (None, None, None, None)      # (table, vales, trade, hv): see _harvest_fn

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
        return self._copy_value(copy, self._plays(obs))

    def _plays(self, obs: dict) -> float:
        """How often a newly bought advancement is still expected to be played."""
        return max(0.0, rounds_left(obs) - 1.0) * self.play_rate

    def _copy_value(self, copy: dict, plays: float) -> float:
        """:meth:`copy_value` with ``plays`` = :meth:`_plays` of the observation."""
        hit = self._parts.get(id(copy))
        play, end_vp, neg_vp, end_extra = hit[1] if hit is not None else self._copy_parts(copy)
        return plays * play + end_vp - neg_vp + end_extra

    def _copy_parts(self, copy: dict) -> tuple:
        """(value per play, end VP, negative VP, ability's end VP) of an advancement: the
        parts of :meth:`copy_value` that do not depend on the rounds left.  Cached by the
        copy view's identity for all bots of the same weights, over games: copy views are
        shared (between games too) and read-only, and each entry holds its view, so the id
        stays that view's."""
        hit = self._parts.get(id(copy))
        if hit is not None:
            return hit[1]
        sym = copy.get("symbols", {})
        a, f, s, w = (sym.get(k, 0) for k in SPIRITS)
        wild = self.spirit_vp * WILD_VP / SPIRIT_VP
        play = (self.mana_vp * sym.get("mana", 0) + self.spirit_vp * (a + f + s) + wild * w
                + VP_SYMBOL_VP * sym.get("vp", 0) + CURSE_VP * sym.get("curse", 0)
                + GUARDIAN_VP * sym.get("guardian", 0)
                - self.decay_vp * sym.get("decay", 0) + GROWTH_VP * sym.get("growth", 0))
        play_extra, end_extra = self._ability_extra(copy)
        play += play_extra
        parts = (play, copy.get("end_vp", 0), copy.get("neg_vp", 0), end_extra)
        if len(self._parts) >= 20000:
            self._parts.clear()
        self._parts[id(copy)] = (copy, parts)
        return parts

    def _soil(self, cost: int, slot: str | None = None) -> dict:
        """The bot's stand-in copy view of Fertile Soil (one read-only object per cost and
        slot, so that caches keyed by identity find it again)."""
        soil = _SOILS.get((cost, slot))
        if soil is None:
            soil = {"symbols": {"mana": 1}, "cost": cost, "kind": "fertile_soil"}
            if slot is not None:
                soil["label"] = f"Fertile Soil@{slot}"
            _SOILS[(cost, slot)] = soil
        return soil

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
        plays = rounds_left(obs) * self.play_rate
        _, per_play, end, extra_end = self._card_parts(card)
        return plays * per_play + end + extra_end

    def _card_parts(self, card: dict) -> tuple[dict, float, float, float]:
        """(the view, value per play, end VP, ability end VP) of a card view, cached by the
        view's identity while the advancements the bot knows stay the same."""
        known = (self._copies, len(self._copies))
        if self._card_cache_key[0] is not known[0] or self._card_cache_key[1] != known[1]:
            self._card_cache.clear()       # a newly seen advancement may value an ability
            self._card_cache_key = known
        hit = self._card_cache.get(id(card))
        if hit is None:
            ci = card_info(card)
            pe, ee = self._card_extra(card) if card.get("advancements") else (0.0, 0.0)
            per_play = ci.play + pe - self.decay_vp * max(0, ci.nd) + GROWTH_VP * max(0, -ci.nd)
            if len(self._card_cache) >= 20000:
                self._card_cache.clear()
            # The entry holds the view, so its id cannot be reused while the entry exists.
            hit = self._card_cache[id(card)] = (card, per_play, ci.end, ee)
        return hit

    def position_value(self, obs: dict, seat: int, relative: bool = True) -> float:
        """A seat's position in VP: points in hand plus what its cards will still earn,
        minus (when ``relative``) the same for the strongest opponent (its cards are public:
        :meth:`opponent_value`)."""
        me = obs["players"][seat]
        v = float(me["vp_tokens"] - me["curse_tokens"])
        v += sum(self.vale_value(x) for x in me["vales"])
        v += sum(self.card_value(c, obs) for c in owned_cards(me))
        if me.get("mana_token_active"):
            v += TOKEN_VP
        t = obs["turn"]
        on_move = t.get("player") == seat
        if on_move and obs["phase"] == "harvest" and "mana" in t:
            v += self.harvest_plan_value(obs)
        if on_move and obs["phase"] == "planting":
            # The harvest the field would give if the seat passed now.
            v += self.field_value(obs, seat)
        if on_move:
            v += self.bought_value(obs)
        if not relative:
            return v
        if obs.get("over") and obs.get("scores"):
            sc = obs["scores"]
            best_other = max(sc[i]["total"] for i in range(len(sc)) if i != seat)
            return 100.0 * (sc[seat]["total"] - best_other)
        others = [self.opponent_value(obs, p) for i, p in enumerate(obs["players"]) if i != seat]
        return v - (max(others) if others else 0.0)

    def opponent_value(self, obs: dict, p: dict) -> float:
        """Another seat's position as the seat on move can see it: its points in hand and
        what its cards (public: its owned list) will still earn."""
        v = self._visible_points(p)
        v += sum(self.card_value(c, obs) for c in owned_cards(p))
        if p.get("mana_token_active"):
            v += TOKEN_VP
        return v

    def harvest_plan_value(self, obs: dict) -> float:
        """In the Harvest, what the seat on move can still get: the best advancement buys
        its mana and buys left allow, and the best vales its free spirits pay for."""
        t = obs["turn"]
        return (self.buy_table(obs, 2 - t["advancement_buys"])[max(0, min(t["mana"], 40))]
                + self.vale_plan_value(obs, self._free_spirits(obs), t["vale_limit"] - t["vale_buys"]))

    def field_value(self, obs: dict, seat: int) -> float:
        """The harvest the seat's field gives as it stands (in an observation by that seat)."""
        return self.harvest_value([card_info(c) for c in obs["players"][seat]["field"]], obs,
                                  self.buy_table(obs, 2), self._vales(obs))

    def bought_value(self, obs: dict) -> float:
        """The value of the advancements bought this turn by the seat on move."""
        v = 0.0
        for label in obs["turn"].get("bought", ()):
            c = self._copies.get(label)
            if c is not None:
                v += self.copy_value(c, obs)
        return v

    def _visible_points(self, p: dict) -> float:
        v = p["vp_tokens"] - p["curse_tokens"] + sum(self.vale_value(x) for x in p["vales"])
        return float(v)

    # -- harvest value of a field ---------------------------------------------------
    def buy_table(self, obs: dict, buys: int) -> list[float]:
        """best[m]: value of the best advancement buys (at most ``buys``) with m mana."""
        last, per_obs = self._obs_tables
        if last is not obs:
            per_obs = {}
            self._obs_tables = (obs, per_obs)
        table = per_obs.get(buys)
        if table is None:
            # The table depends only on the offers (the commons' copy views, shared and
            # read-only), Fertile Soil, rounds_left and ``buys``: it changes only when
            # something is bought or the round estimate moves, so keep it across decisions.
            commons = [c for row in obs["commons"].values() for c in row]
            key = (tuple(map(id, commons)), any(obs["fertile_soil"].values()),
                   obs.get("fertile_soil_cost", 2), rounds_left(obs), buys)
            hit = self._tables.get(key)
            if hit is None:
                if len(self._tables) >= 4096:
                    self._tables.clear()
                hit = self._tables[key] = (commons, self._buy_table(obs, buys))
            table = per_obs[buys] = hit[1]
        return table

    def _buy_table(self, obs: dict, buys: int) -> list[float]:
        opts = []
        plays = self._plays(obs)
        for row in obs["commons"].values():
            for c in row:
                if c is not None:
                    opts.append((c["cost"], self._copy_value(c, plays)))
        soil_cost = obs.get("fertile_soil_cost", 2)
        if any(obs["fertile_soil"].values()):
            sv = self._copy_value(self._soil(soil_cost), plays)
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
        if trade is None:
            trade = _trades(obs)
        return _vale_plan(tuple(have), tuple(spent), self._vales(obs), max(0, buys), trade)

    def harvest_value(self, cards: list[CardInfo], obs: dict, table: list[float],
                      vales: tuple) -> float:
        """Value of harvesting with these cards in the field."""
        return self._harvest_fn(table, vales, _trades(obs))(_aggregate(cards))

    def _harvest_fn(self, table: list[float], vales: tuple, trade: bool):
        """hv(aggregate): the value of harvesting with a field of that :func:`_aggregate`,
        from the buy table, the vales on offer and the rule set.  These stay the same over
        the reveals of a turn (and often longer), so the function and its memo are kept
        while they do."""
        h_table, h_vales, h_trade, hv = self._hv
        if h_table is table and h_trade is trade and (h_vales is vales or h_vales == vales):
            return hv
        memo: dict[tuple, float] = {}
        plans = _field_plans(vales, trade)
        top = len(table) - 1

        def hv(ag: tuple) -> float:
            v = memo.get(ag)
            if v is None:
                mana, a, f, s, w, vp, curse = ag
                m = max(0, min(int(mana), top))
                have = (a, f, s, w)
                plan = plans.get(have)
                if plan is None:
                    plan = plans[have] = _vale_plan(have, (0, 0, 0, 0), vales, 2, trade)
                v = memo[ag] = table[m] + vp + CURSE_VP * curse + plan
            return v

        self._hv = (table, vales, trade, hv)
        return hv

    # -- push or pass ---------------------------------------------------------------
    def _push_or_pass(self, view: SeatView, obs: dict, legal: list[Action]) -> Action:
        names = {a.verb: a for a in legal}
        if "push" not in names:
            return names["pass"]
        now, push = self._push_values(view, obs)
        return names["push"] if push > now else names["pass"]

    def _decide_prep_stop(self, view: SeatView, obs: dict, legal: list[Action]) -> Action | None:
        # German rules: more than 2 decay symbols show in Prep, but growth keeps the decay
        # below 3.  Going on is a push whose spoil costs the prepared field (a new Prep
        # follows and the token turns active), never the Harvest, so it is at worst the
        # push of the next Planting phase: push now when the spoil odds make that push
        # worth it, else stop (the next Planting phase can still push).
        names = {a.verb: a for a in legal}
        if "push" not in names or "stop" not in names:
            return None
        now, push = self._push_values(view, obs)
        return names["push"] if push > now else names["stop"]

    def _push_values(self, view: SeatView, obs: dict) -> tuple[float, float]:
        """(value of harvesting the field as it is, expected value of pushing)."""
        me = obs["players"][view.seat]
        field = card_infos(me["field"])
        pool, known = self._next_cards(me)
        hv = self._harvest_fn(self.buy_table(obs, 2), self._vales(obs), _trades(obs))
        guard = any(c.guard for c in field)     # a field card acts when the turn would spoil
        # Decay showing now counts the field and the on-deck card; pushing keeps it and
        # reveals the next card.  (As harvest_value and _expect_push, sharing the sum.)
        agg = _aggregate(field)
        now = hv(agg)
        push = self._push_rec(_add(agg, card_info(me["on_deck"])), me["decay"], pool, _groups(pool), len(pool),
                              known, self.depth, guard, hv)
        return now, push

    def _vales(self, obs: dict) -> tuple:
        """The vales on offer as ((animal, forest, sky, any) cost, value), in row order."""
        shown = [v for row in obs["vale_rows"].values() for v in row]
        # Vale views are shared and read-only: the offer changes only when a vale is bought.
        key = tuple(map(id, shown))
        hit = self._vale_offers.get(key)
        if hit is None:
            offer = tuple(self._vale_entry(v) for v in shown if v is not None)
            if len(self._vale_offers) >= 4096:
                self._vale_offers.clear()
            hit = self._vale_offers[key] = (shown, offer)
        return hit[1]

    def _vale_entry(self, vale: dict) -> tuple:
        """((animal, forest, sky, any) cost, value) of one vale view, cached by identity
        (the entry holds the view)."""
        hit = self._vale_entries.get(id(vale))
        if hit is None:
            cost = vale["cost"]
            entry = ((cost["animal"], cost["forest"], cost["sky"], cost["any"]), self.vale_value(vale))
            if len(self._vale_entries) >= 4096:
                self._vale_entries.clear()
            hit = self._vale_entries[id(vale)] = (vale, entry)
        return hit[1]

    def _next_cards(self, me: dict) -> tuple[list[CardInfo], list[CardInfo]]:
        """(cards the next reveal is drawn from uniformly, cards known to come first in order)."""
        deck = me.get("deck", [])
        if not deck:
            # An empty deck is refilled by shuffling the discard pile (file 000).
            return card_infos(me.get("discard", [])), []
        known_top = me.get("known_top")
        if not known_top:
            return card_infos(deck), []
        by_id = {c["id"]: c for c in deck}
        known = [card_info(by_id[i]) for i in reversed(known_top) if i in by_id]
        known_ids = {c.id for c in known}
        pool = [card_info(c) for c in deck if c["id"] not in known_ids]
        return pool, known

    def _expect_push(self, field: list[CardInfo], decay: int, pool: list[CardInfo],
                     known: list[CardInfo], obs: dict, table: list[float], vales: tuple,
                     depth: int, guard: bool) -> float:
        """Expected value of pushing (the field already holds the pushed card): the next
        card is revealed; if decay reaches 4 the turn spoils, else the bot may push again."""
        hv = self._harvest_fn(table, vales, _trades(obs))
        return self._push_rec(_aggregate(field), decay, pool, _groups(pool), len(pool), known, depth, guard, hv)

    def _push_rec(self, agg: tuple, decay: int, pool: list[CardInfo], groups: list[list[int]], n: int,
                  known: list[CardInfo], depth: int, guard: bool, hv) -> float:
        """Expected value of the next reveal.  The cards it may come from are ``n`` cards of
        ``pool`` given as ``groups`` (see :func:`_groups`); ``known`` cards come first.

        Cards of one group are one outcome, with its share of the pool as probability;
        outcomes are summed in the order the groups first appear in the remaining pool.
        """
        stop = hv(agg)
        if known:
            outcomes = [(1.0, known[0], -1)]
        elif not n:
            # Nothing left to reveal: no spoil risk, and no more pushes.
            return stop
        elif depth == 1:
            return _last_reveal(stop, decay, pool, groups, n, guard)
        else:
            outcomes = [(len(g) / n, pool[g[0]], j) for j, g in enumerate(groups)]
        total = 0.0
        safe_n = -1
        for prob, nxt, j in outcomes:
            d = decay + nxt.nd
            if d >= SPOIL_AT:
                if guard:
                    # A guard discards the on-deck card and reveals another once: count it
                    # as one more draw at the old decay, from the rest of the pool (the
                    # card that spoiled is not safe, so the safe ones are all still there).
                    if safe_n < 0:
                        safe_n = sum(len(g) for g in groups if decay + pool[g[0]].nd < SPOIL_AT)
                    rest_n = n - 1 if j >= 0 and depth > 1 else n
                    safe = safe_n / max(1, rest_n)
                    v = safe * stop + (1 - safe) * TOKEN_VP
                else:
                    v = TOKEN_VP
            elif depth > 1:
                if j >= 0:
                    go = self._push_rec(_add(agg, nxt), d, pool, _draw(groups, j), n - 1, [], depth - 1,
                                        guard, hv)
                else:
                    go = self._push_rec(_add(agg, nxt), d, pool, groups, n, known[1:], depth - 1, guard, hv)
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
        # 5. Spare spirits for VP (yucata, german).
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
            return self._soil(obs.get("fertile_soil_cost", 2), market[5:])
        where = _MARKETS.get(market)
        if where is None:
            try:
                level, pos = market.split(".")
                where = (level, int(pos) - 1)
            except ValueError:
                where = ()
            if len(_MARKETS) < 4096:
                _MARKETS[market] = where
        if not where:
            return None
        try:
            return obs["commons"][where[0]][where[1]]
        except (KeyError, IndexError):
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
        plays = self._plays(obs)
        opts: list[tuple[int, float, Action, str]] = []
        for a in buys:
            copy = self._market_copy(obs, a.args[0])
            if copy is None:
                continue
            price = copy["cost"]
            if len(a.args) == 3:
                price = max(0, price - self._discount(obs, seat, a.args[2]))
            opts.append((price, self._copy_value(copy, plays), a, a.args[0]))
        if allow_over:
            # With one more mana, offers priced one above the current mana count too: the
            # engine lists only what is affordable now, so add the commons directly.
            listed = {o[3] for o in opts}
            for level, row in obs["commons"].items():
                for i, c in enumerate(row):
                    m = f"{level}.{i + 1}"
                    if c is not None and m not in listed and c["cost"] <= mana:
                        opts.append((c["cost"], self._copy_value(c, plays), Action("buy", (m,)), m))
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
        trade = _trades(obs)
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
        top = card_info(cards[0])
        # The card looked at is the next one revealed (Calm Weather resolves before the
        # reveal): discard it if it would spoil, or if it is worse than an average draw.
        if me["decay"] + top.nd >= SPOIL_AT:
            return _find(legal, "discard")
        rest = [card_info(c) for c in me.get("deck", []) if c["id"] != top.id]
        avg = sum(self._draw_value(c) for c in rest) / len(rest) if rest else 0.0
        return _find(legal, "keep") if self._draw_value(top) >= avg else _find(legal, "discard")

    def _draw_value(self, c: CardInfo) -> float:
        return c.play - DECAY_VP * 2 * max(0, c.nd) + GROWTH_VP * max(0, -c.nd)

    def _decide_discard_field(self, view: SeatView, obs: dict, legal: list[Action]) -> Action | None:
        # The on-deck card is revealed after this ability: compare the expected value of
        # that reveal with each field card discarded (or none).
        me = obs["players"][view.seat]
        field = card_infos(me["field"])
        pool, known = self._next_cards(me)
        hv = self._harvest_fn(self.buy_table(obs, 2), self._vales(obs), _trades(obs))
        guard = any(c.guard for c in field)     # a field card acts when the turn would spoil
        groups = _groups(pool)                  # (as _expect_push, once for every answer)
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
            v = self._push_rec(_aggregate(f), d, pool, groups, len(pool), known, 1, guard, hv)
            if best is None or v > best + 1e-9 or (a.verb == "skip" and v >= best - 1e-9):
                best, best_a = v, a
        return best_a

    def _decide_search_deck(self, view: SeatView, obs: dict, legal: list[Action]) -> Action | None:
        me = obs["players"][view.seat]
        deck = {c["id"]: card_info(c) for c in me.get("deck", [])}
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


def owned_cards(me: dict) -> list[dict]:
    """Every card a seat owns, from its entry in an observation: its ``owned`` list (public),
    or, in an observation without one, its deck, discard pile, field and on-deck card."""
    if "owned" in me:
        return me["owned"]
    cards = list(me.get("deck", ())) + list(me.get("discard", ())) + list(me["field"])
    if me["on_deck"] is not None:
        cards.append(me["on_deck"])
    return cards


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


def _groups(pool: list[CardInfo]) -> list[list[int]]:
    """The positions in ``pool`` of each distinct card (by :attr:`CardInfo.k`), the groups in
    order of their first card."""
    index: dict[tuple, list[int]] = {}
    groups: list[list[int]] = []
    for i, c in enumerate(pool):
        g = index.get(c.k)
        if g is None:
            g = index[c.k] = []
            groups.append(g)
        g.append(i)
    return groups


def _last_reveal(stop: float, decay: int, pool: list[CardInfo], groups: list[list[int]], n: int,
                 guard: bool) -> float:
    """:meth:`Greedy._push_rec` one reveal deep from the pool (no known cards, ``n`` > 0):
    each outcome either spoils or ends in harvesting (worth ``stop``)."""
    total = 0.0
    spoil_v = None
    for g in groups:
        if decay + pool[g[0]].nd >= SPOIL_AT:
            if spoil_v is None:
                if guard:
                    # As in _push_rec: the guard reveals one more card from the same pool.
                    safe = sum(len(h) for h in groups if decay + pool[h[0]].nd < SPOIL_AT) / max(1, n)
                    spoil_v = safe * stop + (1 - safe) * TOKEN_VP
                else:
                    spoil_v = TOKEN_VP
            total += len(g) / n * spoil_v
        else:
            total += len(g) / n * stop
    return total


def _draw(groups: list[list[int]], j: int) -> list[list[int]]:
    """The groups once the first card of group ``j`` is drawn: that group loses its first
    position and moves to where its next card stands (it may now come after groups that
    were behind it); groups keep being ordered by their first remaining card."""
    g = groups[j]
    out = groups[:j] + groups[j + 1:]
    if len(g) > 1:
        tail = g[1:]
        p = tail[0]
        i = j      # the groups before j start before g[0], so before p too
        while i < len(out) and out[i][0] < p:
            i += 1
        out.insert(i, tail)
    return out


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
    priced options (cost, value) costing m mana or less.  ``opts`` are sorted.

    The best single buy at a cost is the best option of that cost, and the best pair at
    two costs is made of the best option(s) of each (a larger addend never makes a smaller
    float sum), so only those are summed.
    """
    top = 41
    exact = [0.0] * top
    if buys <= 0:
        return exact
    # The best and second-best value at each cost (sorted: values ascend within a cost).
    first: dict[int, float] = {}
    second: dict[int, float] = {}
    for c, v in opts:
        if c in first:
            second[c] = first[c]
        first[c] = v
    for c, v in first.items():
        if c < top and v > exact[c]:
            exact[c] = v
    if buys >= 2:
        costs = list(first)          # ascending
        for a, ca in enumerate(costs):
            va = first[ca]
            if ca in second and ca + ca < top:
                v = va + second[ca]
                if v > exact[ca + ca]:
                    exact[ca + ca] = v
            for cb in costs[a + 1:]:
                p = ca + cb
                if p >= top:
                    break
                v = va + first[cb]
                if v > exact[p]:
                    exact[p] = v
    best = [0.0] * top
    run = 0.0
    for m in range(top):
        if exact[m] > run:
            run = exact[m]
        best[m] = run
    return best


def _vale_plan(have: tuple[int, ...], spent: tuple[int, ...], vales: tuple, buys: int, trade: bool) -> float:
    """Best value of up to ``buys`` vales payable from ``have`` after ``spent``, plus a VP
    for every 3 spare spirits when trading is allowed.  A plan is worth its vales' values
    (in row order) plus the trade of the spirits left, summed as ``val1 + (val2 + trade)``."""
    pay = _payments(have)
    slack = pay.get(spent)
    if slack is None:
        slack = _pay(have, pay, spent)
    return _best_plan(have, pay, spent, slack, vales, buys, trade)


def _best_plan(have: tuple[int, ...], pay: dict, spent: tuple[int, ...], slack: int, vales,
               buys: int, trade: bool) -> float:
    """:func:`_vale_plan` once ``spent`` is known to leave ``slack`` (see :func:`_pay`).

    Needing more symbols never makes a payment possible (:func:`can_pay` is monotone),
    which gives two shortcuts that leave the value unchanged: a vale that cannot be paid
    now cannot be paid after another either, and buying leaves at most as many trades as
    there are now (so a last vale whose value plus today's trades cannot beat the best
    plan found is not looked at).
    """
    best = float(slack) if trade and slack > 0 else 0.0
    if buys <= 0:
        return best
    get = pay.get
    s0, s1, s2, s3 = spent
    if buys == 1:
        return _best_last(have, pay, spent, vales, best, trade)
    payable = []
    for cost, val in vales:
        need = (s0 + cost[0], s1 + cost[1], s2 + cost[2], s3 + cost[3])
        t = get(need)
        if t is None:
            t = _pay(have, pay, need)
        if t >= 0:
            payable.append((cost, val, need, t))
    # The first vale bought, then the best plan for the rest after it in row order.
    for i, (_cost, val, need, t) in enumerate(payable):
        rest = [(c, w) for c, w, _n, _t in payable[i + 1:]]
        v = val + _best_plan(have, pay, need, t, rest, buys - 1, trade)
        if v > best:
            best = v
    return best


def _best_last(have: tuple[int, ...], pay: dict, spent: tuple[int, ...], vales, best: float,
               trade: bool) -> float:
    """The better of ``best`` (the plan that buys no more) and buying one last vale of
    ``vales`` after ``spent``: its value plus the trade of what is left."""
    get = pay.get
    s0, s1, s2, s3 = spent
    base = best
    for cost, val in vales:
        if val + base <= best:
            continue        # at most val + base after buying it: no better
        need = (s0 + cost[0], s1 + cost[1], s2 + cost[2], s3 + cost[3])
        t = get(need)
        if t is None:
            t = _pay(have, pay, need)
        if t >= 0:
            v = val + (float(t) if trade else 0.0)
            if v > best:
                best = v
    return best


#: spirits (animal, forest, sky, wild) -> {need (animal, forest, sky, any): _pay(...)}.
#: Vale offers change, but the payments they ask for are few and come back.
_PAYMENTS: dict[tuple, dict[tuple, int]] = {}


def _payments(have: tuple[int, ...]) -> dict[tuple, int]:
    pay = _PAYMENTS.get(have)
    if pay is None:
        if len(_PAYMENTS) >= 20000:
            _PAYMENTS.clear()
        pay = _PAYMENTS[have] = {}
    return pay


def _pay(have: tuple[int, ...], pay: dict, need: tuple[int, ...]) -> int:
    """-1 if spirits ``have`` cannot pay ``need`` (:func:`can_pay`), else how many VP the
    spirits left would trade for, 3 for one (the yucata spirit trade); stored in ``pay``."""
    if not can_pay(have, need):
        n = -1
    else:
        n = 0
        head, extra = need[:3], need[3]
        while can_pay(have, head + (extra + 3 * (n + 1),)):
            n += 1
    pay[need] = n
    return n


#: (vales on offer, trade allowed) -> {spirits (animal, forest, sky, wild): best vale plan of
#: two buys from nothing spent}: the vale part of every harvest value of push/pass.
_FIELD_PLANS: dict[tuple, dict[tuple, float]] = {}


def _field_plans(vales: tuple, trade: bool) -> dict[tuple, float]:
    plans = _FIELD_PLANS.get((vales, trade))
    if plans is None:
        if len(_FIELD_PLANS) >= 1024:
            _FIELD_PLANS.clear()
        plans = _FIELD_PLANS[(vales, trade)] = {}
    return plans


def _register() -> None:
    from . import register
    register("greedy", Greedy)


_register()

__all__ = ["Greedy", "CardInfo", "can_pay", "rounds_left"]

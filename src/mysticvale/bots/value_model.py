"""A position evaluation fitted to who wins: the ISMCTS bot's default leaf score.

The greedy bot's ``position_value`` prices everything with hand-set weights (a spirit
symbol is worth 1.35 VP per play, a card is played in 30% of the rounds left, ...).  This
model keeps the same ingredients but lets game results set their weights: each seat's
position is a vector of :func:`seat_features` (points in hand, the symbols its cards will
show times the rounds left, the harvest its field already promises, ...), its *strength*
is ``u = points + sum(w_k * feature_k)`` in VP, and the chance that a seat wins against the
strongest other seat is a logistic of the difference of strengths over a scale that
shrinks as the VP pool drains::

    P(seat wins) = 1 / (1 + exp(-(u_seat - u_best_other + w_move * on_move) / (a + b * pool)))

The weights are fitted by maximum likelihood to greedy-vs-greedy two-player base games
(``benchmarks/fit_value_model.py``, which prints the fit and how it compares with the
greedy bot's own value on held-out games).
"""

from __future__ import annotations

import math

from .greedy import CURSE_VP, GUARDIAN_VP, Greedy, card_info, owned_cards, rounds_left

#: Names of the features of :func:`seat_features`, in order.  ``R`` is the greedy bot's
#: estimate of the rounds still to play; card sums run over every card the seat owns.
FEATURES = (
    "points",       # VP tokens - curse tokens + the vales' end VP (not weighted: the unit)
    "vale_text",    # vales with an ability
    "R*mana",       # R x the mana its cards show
    "R*spirit",     # R x animal, forest and sky symbols
    "R*wild",       # R x wild spirit symbols
    "R*vp",         # R x VP symbols (a VP token each time the card is harvested)
    "R*decay",      # R x net decay (decay - growth) its cards show
    "R*other",      # R x abilities' estimated worth per play, curses and guardians
    "end_vp",       # end-of-game VP printed on its advancements, and ability end VP
    "token",        # the mana token is active
    "harvest",      # the harvest its field already promises (the greedy bot's estimate)
)

#: Fitted weights of FEATURES[1:] (VP per unit), the bonus of the seat on move, and the
#: scale ``a + b * pool``.  Fitted by ``benchmarks/fit_value_model.py`` (2 000 games, seed 11)
#: except ``vale_text``: no base-game vale has an ability, so the fit cannot weigh one, and
#: that weight keeps the greedy bot's +0.5 VP (``Greedy.vale_value``).  The greatest
#: departure from the greedy bot's hand-set weights is decay: -0.88 VP per net decay symbol
#: per round left, against its -0.135 (each decay symbol shortens every later turn).
WEIGHTS = (0.5, 0.056, 0.22, 0.443, 0.137, -0.88, -0.004, 0.735, 1.188, 0.422)
MOVE = 3.7
SCALE = (3.68, 0.325)


class ValueModel:
    """Win chances of every seat from public information and each seat's own view.

    ``evaluator`` is the greedy bot that supplies the ingredients (advancement abilities it
    has seen in the commons, buy tables, vale plans); its caches are reused.
    """

    def __init__(self, evaluator: Greedy, weights=WEIGHTS, move: float = MOVE, scale=SCALE) -> None:
        if len(weights) != len(FEATURES) - 1:
            raise ValueError(f"the value model needs {len(FEATURES) - 1} weights, not {len(weights)}")
        self.ev = evaluator
        self.weights = tuple(float(w) for w in weights)
        self.move = float(move)
        self.scale = (float(scale[0]), float(scale[1]))
        self._cards: dict[int, tuple] = {}
        self._cards_key: tuple = (None, 0)

    # -- features -------------------------------------------------------------------
    def seat_features(self, obs: dict, seat: int) -> list[float]:
        """The raw FEATURES of ``seat`` in an observation by that seat."""
        me = obs["players"][seat]
        r = rounds_left(obs)
        vales = me["vales"]
        pts = me["vp_tokens"] - me["curse_tokens"]
        for x in vales:
            pts += x.get("end_vp", 0) - x.get("neg_vp", 0)
        mana = spirit = wild = vp = decay = other = end = 0.0
        for c in owned_cards(me):
            t = self._card_terms(c)[1]
            mana += t[0]
            spirit += t[1]
            wild += t[2]
            vp += t[3]
            decay += t[4]
            other += t[5]
            end += t[6]
        return [float(pts), float(sum(1 for x in vales if x.get("text"))), r * mana, r * spirit, r * wild,
                r * vp, r * decay, r * other, end, 1.0 if me.get("mana_token_active") else 0.0,
                self.harvest(obs, seat)]

    def _card_terms(self, c: dict) -> tuple:
        """(the view, its raw card terms, its strength per round left, its fixed strength),
        cached by the view's identity while the advancements the evaluator knows stay the
        same (a newly seen advancement may give an ability a value; see Greedy._card_parts)."""
        known = self.ev._copies
        if self._cards_key[0] is not known or self._cards_key[1] != len(known):
            self._cards.clear()
            self._cards_key = (known, len(known))
        hit = self._cards.get(id(c))
        if hit is None:
            ci = card_info(c)
            a, f, s, w = ci.spirits
            pe, ee = self.ev._card_extra(c) if c.get("advancements") else (0.0, 0.0)
            terms = (ci.mana, a + f + s, w, ci.vp, ci.nd, pe + CURSE_VP * ci.curse + GUARDIAN_VP * ci.guardian,
                     ci.end + ee)
            wt = self.weights
            per_round = sum(wt[k] * terms[k - 1] for k in range(1, 7))
            if len(self._cards) >= 20000:
                self._cards.clear()
            # The entry holds the view, so its id cannot be reused while the entry exists.
            hit = self._cards[id(c)] = (c, terms, per_round, wt[7] * terms[6])
        return hit

    def harvest(self, obs: dict, seat: int) -> float:
        """What the seat's turn in progress, or its prepared field, promises (VP)."""
        ev = self.ev
        t = obs["turn"]
        v = 0.0
        if t.get("player") == seat:
            if obs["phase"] == "harvest" and "mana" in t:
                return ev.harvest_plan_value(obs) + ev.bought_value(obs)
            v = ev.bought_value(obs)
        if obs.get("over"):
            return v
        # Planting, or another seat's prepared field: it can harvest at least this much.
        return v + ev.field_value(obs, seat)

    # -- strength -------------------------------------------------------------------
    def strength(self, obs: dict, seat: int) -> float:
        """``u``: the seat's position in VP under the fitted weights (the weighted sum of
        :meth:`seat_features`, computed from the cached card terms)."""
        me = obs["players"][seat]
        wt = self.weights
        vales = me["vales"]
        u = float(me["vp_tokens"] - me["curse_tokens"])
        for x in vales:
            u += x.get("end_vp", 0) - x.get("neg_vp", 0)
            if x.get("text"):
                u += wt[0]
        per_round = fixed = 0.0
        for c in owned_cards(me):
            hit = self._card_terms(c)
            per_round += hit[2]
            fixed += hit[3]
        u += rounds_left(obs) * per_round + fixed
        if me.get("mana_token_active"):
            u += wt[8]
        return u + wt[9] * self.harvest(obs, seat)

    def win_chances(self, g) -> list[float]:
        """Each seat's chance of winning (a finished game: 1 / 0 / shared) in a game ``g``
        that the caller may see whole (a determinization)."""
        n = g.players
        if g.is_over():
            return finished_shares(g)
        obs = seat_observations(g)
        u = [self.strength(obs[p], p) for p in range(n)]
        mover = g.current_player
        pool = max(0, g.state.vp_pool)
        scale = max(0.5, self.scale[0] + self.scale[1] * pool)
        out = []
        for p in range(n):
            other = max(u[q] + (self.move if q == mover else 0.0) for q in range(n) if q != p)
            d = u[p] + (self.move if p == mover else 0.0) - other
            out.append(1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, d / scale)))))
        return out


def finished_shares(g) -> list[float]:
    """Each seat's share of the win in a finished game ``g``: 1 / 0, or 1/k of a k-way tie."""
    w = g.winners()
    return [1.0 / len(w) if p in w else 0.0 for p in range(g.players)]


def seat_observations(g) -> list[dict]:
    """For each seat of a game the caller may see whole (a determinization), an observation
    that shows that seat's position as the seat itself sees it.  Every player's cards are
    public (``owned``), so one spectator's observation serves every seat, except a seat
    holding a leader never face up: the spectator sees it as an unseen leader, so that
    seat gets its own observation."""
    public = g.observe(None)
    out = []
    for p, me in enumerate(public["players"]):
        hidden = any(c.get("unseen_leader") for c in me["owned"])
        out.append(g.observe(p) if hidden else public)
    return out


__all__ = ["FEATURES", "ValueModel", "WEIGHTS", "finished_shares", "seat_observations"]

"""Ratings of people from their games against each other (openskill's Plackett-Luce model).

Each person has a skill estimate ``mu`` and an uncertainty ``sigma`` (openskill's defaults: 25
and 25/3 for a newcomer).  A game changes the ratings of the people in it once, when it ends,
by their places (a shared win is a shared place).

**Which games count.**  A game is *rated* when at least two of its seats are held by people and
no seat is a bot.  Games with bots never change a rating: a bot can hand points to one player
(or block only one), so a place in such a game says less about the people than a game among
people does, and playing many quick games against a weak bot must not raise a number that is
meant to compare people.  Games against bots are counted in the profile, per kind of bot,
instead.  A human seat nobody claimed (played with its link alone) has no rating: the people at
the table are rated among themselves.

**The number shown** is ``1000 + 40 * (mu - 3 * sigma)``, rounded: openskill's cautious
"ordinal" (the skill the person has with about 99.7 % certainty), scaled to numbers people know
from other game sites.  A newcomer shows 1000; the number rises as games show more skill and
as the system grows surer of it, so early wins move it most.  Fewer than :data:`PROVISIONAL`
rated games: the number is provisional.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

#: The rating model (openskill's defaults: mu 25, sigma 25/3).
MODEL = PlackettLuce()
#: Shown number = BASE + SCALE * (mu - 3 sigma).
BASE, SCALE = 1000.0, 40.0
#: Below this many rated games the number is marked provisional.
PROVISIONAL = 5


@dataclass(frozen=True)
class Skill:
    """A person's rating: openskill's mu and sigma, and how many rated games made it."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    @property
    def shown(self) -> int:
        """The number people see (see the module docstring)."""
        return shown(self.mu, self.sigma)


def shown(mu: float, sigma: float) -> int:
    """``1000 + 40 * (mu - 3 sigma)``, rounded: the number shown for a rating."""
    return int(round(BASE + SCALE * (mu - 3.0 * sigma)))


def rate(skills: list[Skill], places: list[int]) -> list[Skill]:
    """The ratings after a game of these people (``places``: 1 for the winner(s), equal places
    for a tie), in the same order.  Needs at least two people."""
    if len(skills) < 2 or len(skills) != len(places):
        raise ValueError("a rated game needs two or more people, each with a place")
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    new = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [Skill(team[0].mu, team[0].sigma, s.games + 1) for team, s in zip(new, skills)]


def places_of(totals: list[tuple[int, int]], winners: list[int]) -> list[int]:
    """Each seat's place from ``(total, tiebreak)`` per seat and the game's winners: the winners
    share place 1 (also when a card declared them winners), the others follow by total and then
    the tie-break (level-3 advancements plus level-2 vales, as the rules break ties), equal
    places for equal pairs."""
    order = sorted({totals[s] for s in range(len(totals)) if s not in winners}, reverse=True)
    first = 1 + (1 if winners else 0)
    places = []
    for seat, pair in enumerate(totals):
        if seat in winners:
            places.append(1)
        else:
            above = sum(1 for p in order if p > pair)
            places.append(first + above if winners else 1 + above)
    return places

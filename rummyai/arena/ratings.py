"""OpenSkill (Plackett-Luce) ratings from game records: every game is a free-for-all of its seats.

These sequential updates depend on the order of the games (the batch fit in `batch_ratings`
does not, and is the reports' default). Games are rated in (set, seating) order, so the ratings do not depend on which worker finished
first. An agent holding several seats of one game is rated as copies, then takes the mean of the
copies' updates.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rummyai.arena.stats import entrants

Z95 = 1.959964


@dataclass(frozen=True)
class Rating:
    """An agent's skill estimate: `mu` and its spread `sigma`, with a 95% interval `ci` when the
    method gives one (the batch fit's bootstrap), else mu ± 1.96 sigma (OpenSkill)."""

    agent: str
    mu: float
    sigma: float
    ci: tuple[float, float] | None = None
    method: str = "openskill"
    sets: int = 0  # duplicate sets the agent played in

    @property
    def degenerate(self) -> bool:
        """Whether the bootstrap interval has no width: every resample of the sets was alike (one
        set, or the same result in every set), so it says nothing about the rating's uncertainty."""
        return self.ci is not None and self.ci[1] - self.ci[0] < 1e-9

    @property
    def interval(self) -> tuple[float, float]:
        """95% interval for the skill."""
        if self.ci is not None:
            return self.ci
        return (self.mu - Z95 * self.sigma, self.mu + Z95 * self.sigma)

    @property
    def ordinal(self) -> float:
        """Conservative skill (OpenSkill's mu - 3 sigma; the low end of the interval otherwise)."""
        if self.ci is not None:
            return self.ci[0]
        return self.mu - 3 * self.sigma


def rate(records: Sequence[dict[str, Any]], order: Sequence[str] = ()) -> list[Rating]:
    """Plackett-Luce ratings of every agent, highest ordinal first."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    names = entrants(records, order)
    state = {name: (model.mu, model.sigma) for name in names}
    for record in sorted(records, key=lambda r: (int(r["set"]), int(r["seating"]))):
        seats = record["seats"]
        if len(seats) < 2:
            continue
        teams = [[model.rating(mu=state[name][0], sigma=state[name][1])] for name in seats]
        updated = model.rate(teams, ranks=[float(r) for r in record["ranks"]])
        sums: dict[str, list[float]] = {}
        for name, team in zip(seats, updated, strict=True):
            entry = sums.setdefault(name, [0.0, 0.0, 0.0])
            entry[0] += team[0].mu
            entry[1] += team[0].sigma
            entry[2] += 1
        for name, (mu, sigma, copies) in sums.items():
            state[name] = (mu / copies, sigma / copies)
    played = {name: {int(r["set"]) for r in records if name in r["seats"]} for name in names}
    ratings = [Rating(name, mu, sigma, sets=len(played[name])) for name, (mu, sigma) in state.items()]
    return sorted(ratings, key=lambda r: -r.ordinal)

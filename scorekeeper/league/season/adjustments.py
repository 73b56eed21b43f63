"""Points deducted from or awarded to a team by the secretary, with a reason and a date.

An adjustment is a change of the league's record (`points_adjusted`), never stored twice:
the standings read the adjustments in force off the record in order, so a team renamed
since keeps its adjustments and a team deleted takes its own away.
"""

from dataclasses import dataclass, replace
from datetime import date

from ..errors import N_, SetupRefused

ADJUSTED = "points_adjusted"
"""The kind of change of an adjustment."""
MAX_ADJUSTMENT = 100
"""More points than a season's table holds for one team, either way."""
MAX_REASON = 200


@dataclass(frozen=True)
class Adjustment:
    """Points (negative: deducted) to a team, on a day, for a reason."""

    team: str
    points: int
    day: str
    reason: str

    def as_facts(self) -> dict:
        return {"team": self.team, "points": self.points, "day": self.day,
                "reason": self.reason}


def adjustment(team: str, points, day: date, reason) -> Adjustment:
    """An adjustment as the secretary gives it: a whole number of points other than 0,
    within MAX_ADJUSTMENT either way, and a one-line reason."""
    if isinstance(points, bool) or not isinstance(points, int) or points == 0 or \
            abs(points) > MAX_ADJUSTMENT:
        raise SetupRefused.worded(N_("An adjustment deducts or awards from 1 to %(most)s "
                                     "points (a deduction is negative, as -3)."),
                                  "bad_adjustment", most=MAX_ADJUSTMENT)
    reason = " ".join(str(reason or "").split())
    if not reason or len(reason) > MAX_REASON or not reason.isprintable():
        raise SetupRefused.worded(N_("Give the reason for the adjustment, in at most "
                                     "%(most)s characters."), "bad_reason",
                                  most=MAX_REASON)
    return Adjustment(team, points, day.isoformat(), reason)


def adjustments(changes: list[dict]) -> list[Adjustment]:
    """The adjustments in force, by each team's name now, read off the league's changes in
    the order they were made."""
    found: list[Adjustment] = []
    for change in changes:
        facts = change["facts"]
        if change["kind"] == ADJUSTED:
            found.append(Adjustment(str(facts["team"]), int(facts["points"]),
                                    str(facts["day"]), str(facts["reason"])))
        elif change["kind"] == "team_renamed":
            found = [replace(item, team=facts["to"]) if item.team == facts["from"] else item
                     for item in found]
        elif change["kind"] == "team_deleted":
            found = [item for item in found if item.team != facts["team"]]
    return found


def adjusted_points(found: list[Adjustment]) -> dict[str, int]:
    """Each adjusted team's points in all."""
    totals: dict[str, int] = {}
    for item in found:
        totals[item.team] = totals.get(item.team, 0) + item.points
    return totals

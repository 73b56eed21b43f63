"""A league's own time: the time zone its pubs are in, which day it is there (tonight's
fixtures), and when a stored moment (kept in UTC) happened there."""

import functools
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from ..errors import N_, SetupRefused

DEFAULT_ZONE = "UTC"
"""The time zone of a league set up before leagues had one."""
PUB_ZONES = ("Europe/London", "Europe/Dublin", "Europe/Athens", "Europe/Nicosia",
             "Europe/Prague", "Europe/Bratislava", "Europe/Budapest", "Europe/Vienna",
             "Europe/Berlin", "UTC")
"""The zones the new-league form offers: where the app's languages are spoken (any other
of the IANA database is taken too, from an archive)."""


_zones = functools.cache(available_timezones)
"""The IANA database's names, read once (it walks the zone files)."""


def checked_time_zone(name) -> str:
    """A time zone of the IANA database, by its name (`Europe/Prague`)."""
    name = str(name or "").strip()
    try:
        if name and name in _zones():
            ZoneInfo(name)
            return name
    except (ZoneInfoNotFoundError, ValueError):
        pass
    raise SetupRefused.worded(N_("%(zone)s is not a time zone this app knows: write it as "
                                 "Europe/London or Europe/Prague."), "bad_time_zone",
                              zone=name[:40])


def local_day(zone: str, now: datetime) -> date:
    """The date in the league's time zone at the moment `now` (aware)."""
    return now.astimezone(ZoneInfo(zone)).date()


def local_moment(zone: str, stored: str) -> datetime | None:
    """A moment the store wrote in UTC (`2026-12-01T18:14:54Z`), in the league's time zone;
    None if the text is no moment (an archive's, kept as written)."""
    try:
        moment = datetime.fromisoformat(str(stored).replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(ZoneInfo(zone))

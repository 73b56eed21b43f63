"""A league's links withdrawn and given out again: the secretary's, the public page's, or
a captain's. The old key stops opening anything with the transaction that replaces it
(every worker reads the keys from the database on every request), and is remembered by
its hash only, so that whoever still has it is told it was withdrawn."""

from ...league.errors import N_
from ...league.terms.setup import CAPTAIN, PUBLIC, SECRETARY
from ...storage.leagues import new_key
from ..unit_of_work import UnitOfWork
from .setup import Access, NotAllowed, no_such_team, secretary_only

ROLES = (SECRETARY, PUBLIC, CAPTAIN)


def reissue_link(uow: UnitOfWork, access: Access, role: str, team_id: int | None = None) -> str:
    """Withdraw a link and give out a new one; the new key."""
    secretary_only(access)
    if role not in ROLES or (role == CAPTAIN) != (team_id is not None):
        raise NotAllowed.worded(N_("This league has no such link."), "no_such_link")
    with uow:
        uow.leagues.lock(access.league_id)
        league = uow.leagues.league(access.league_id)
        if role == CAPTAIN:
            team = next((team for team in uow.leagues.teams(access.league_id)
                         if team.id == team_id), None)
            if team is None:
                raise no_such_team()
            old, facts = team.captain_key, {"role": role, "team": team.name}
        else:
            old = league.secretary_key if role == SECRETARY else league.public_key
            facts = {"role": role}
        key = new_key()
        uow.leagues.set_key(access.league_id, role, key, team_id)
        uow.audit.withdraw(access.league_id, old, role)
        uow.audit.add_change(access.league_id, "link_reissued", facts)
    return key


def withdrawn(uow: UnitOfWork, league_id: str, key: str) -> bool:
    """Whether `key` opened this league once, and was withdrawn."""
    return uow.audit.withdrawn(league_id, key)

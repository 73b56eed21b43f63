"""Two workers on one database: a worker whose kept match is behind the stored one (the
other worker wrote the latest entries) brings it up to date from the entries it has not
seen, to exactly the state a replay of the whole log gives."""

import random

import pytest
import stores
from simulation import RandomTable, random_table

from scorekeeper import storage
from scorekeeper.rules import Hand, Lay, Match, Start, Table
from scorekeeper.rules.match.record import write_record
from scorekeeper.rules.notation.events import UNDO
from scorekeeper.storage import matches as matches_module


def state(match: Match) -> tuple:
    """Everything a match holds, the record and each hand's every field included."""
    hands = [tuple(getattr(hand, name) for name in Hand.__slots__) for hand in match.hands]
    return (write_record(match), match.log, match.scores, match.winner, match.phase,
            match.turn, match._marks, hands)


class Worker:
    """One server process: its own connection and its own kept matches."""

    def __init__(self, database: str):
        self.conn = storage.connect(database)
        self.cache = stores.MatchCache()

    def load(self, made: stores.Stored) -> stores.Stored:
        return stores.load(self.conn, made.id, made.score_key, True, self.cache)

    def enter(self, made: stores.Stored, entry) -> stores.Stored:
        loaded = self.load(made)
        return stores.write(self.conn, loaded, loaded.revision, entry, self.cache)

    def kept_revision(self, made: stores.Stored) -> int | None:
        kept = self.cache.get((made.id, made.score_key), 10**9)
        return None if kept is None else kept[0]


@pytest.fixture
def workers(database):
    """Two workers, the first one to make the matches."""
    pair = Worker(database), Worker(database)
    yield pair
    for worker in pair:
        worker.conn.close()


def replayed(worker: Worker, made: stores.Stored) -> Match:
    """The match replayed from its whole log, nothing kept."""
    return stores.load(worker.conn, made.id, made.score_key, True).match


@pytest.mark.parametrize("seed", [1, 2])
def test_a_worker_behind_by_a_few_entries_catches_up_to_what_a_whole_replay_gives(
        workers, seed):
    """Taps, undos (of a tile, of the end of a hand, of the end of the match) and their
    taps again through one worker; the other is behind by 1 to 6 entries each time it looks."""
    writer, reader = workers
    rng = random.Random(seed)
    setup = random_table(rng)
    table = Table.create(setup.players, setup.partnerships, 61, setup.hand_size, setup.rules)
    made = stores.create(writer.conn, Match(table))
    sim = RandomTable(Match(table), rng)
    reader.load(made)
    looked, ends_undone = 0, 0
    while not (sim.match.is_over() and ends_undone >= 2):
        for _ in range(rng.randint(1, 6)):
            if sim.match.log and (rng.random() < 0.15 or sim.match.is_over()):
                ends_undone += sim.match.is_over()
                sim.undo_tap()  # as the Undo button: one tile of a draw of several
                writer.enter(made, UNDO)
            elif not sim.match.is_over():
                writer.enter(made, sim.step())
        behind = reader.kept_revision(made)
        seen = reader.load(made)
        assert behind < seen.revision or behind == seen.revision == len(sim.match.log) == 0
        assert state(seen.match) == state(replayed(reader, made)) == state(sim.match)
        assert reader.kept_revision(made) == seen.revision
        looked += 1
    assert sim.match.winner is not None and looked > 10


def test_a_worker_behind_reads_only_the_entries_written_since(tmp_path):
    writer, reader = Worker(str(tmp_path / "db.sqlite")), Worker(str(tmp_path / "db.sqlite"))
    storage.upgrade(writer.conn)
    made = stores.create(writer.conn, Match.create(["Ann", "Bob"]))
    for entry in (Start(0), UNDO, Start(1)):
        writer.enter(made, entry)
    reader.load(made)
    writer.enter(made, Lay((6, 6)))
    writer.enter(made, UNDO)  # undoes an entry written since: the kept match still holds
    read = []
    reader.conn.set_trace_callback(read.append)
    seen = reader.load(made)
    reader.conn.set_trace_callback(None)
    assert seen.revision == 5 and seen.match.log == [Start(1)]
    assert [sql for sql in read if "FROM entries" in sql] == [
        f"SELECT kind, data FROM entries WHERE match_id = '{made.id}' AND seq > 3 "
        f"AND seq <= 5 ORDER BY seq"]
    writer.conn.close()
    reader.conn.close()


def test_an_undo_through_another_worker_is_replayed_from_the_stored_log(tmp_path):
    """Issue 24: a worker's kept match is never trusted past the revision it was built at
    once another worker took back an event it holds: the stored log decides, read whole."""
    writer, reader = Worker(str(tmp_path / "db.sqlite")), Worker(str(tmp_path / "db.sqlite"))
    storage.upgrade(writer.conn)
    made = stores.create(writer.conn, Match.create(["Ann", "Bob"]))
    for entry in (Start(0), Lay((6, 6))):
        writer.enter(made, entry)
    reader.load(made)
    writer.enter(made, UNDO)  # takes back 6-6, which the reader's kept match holds
    writer.enter(made, Lay((5, 5)))
    read = []
    reader.conn.set_trace_callback(read.append)
    seen = reader.load(made)
    reader.conn.set_trace_callback(None)
    assert seen.revision == 4 and seen.match.log == [Start(0), Lay((5, 5))]
    assert [sql for sql in read if "FROM entries" in sql][-1] == (
        f"SELECT kind, data FROM entries WHERE match_id = '{made.id}' AND seq > 0 "
        f"AND seq <= 4 ORDER BY seq")
    writer.conn.close()
    reader.conn.close()


def test_catching_up_never_changes_the_match_another_request_holds(workers):
    writer, reader = workers
    made = stores.create(writer.conn, Match.create(["Ann", "Bob"]))
    writer.enter(made, Start(0))
    held = reader.load(made)  # a request still rendering revision 1
    before = state(held.match)
    writer.enter(made, UNDO)
    writer.enter(made, Start(1))
    later = reader.load(made)
    assert later.match.log == [Start(1)] and later.match is not held.match
    assert state(held.match) == before


def test_a_match_deleted_while_a_worker_catches_up_is_shown_empty_and_not_kept(workers):
    writer, reader = workers
    made = stores.create(writer.conn, Match.create(["Ann", "Bob"]))
    writer.enter(made, Start(0))
    reader.load(made)
    writer.enter(made, UNDO)
    row = stores.find(reader.conn, made.id, made.score_key, scoring=True)  # the board's read
    assert stores.delete(writer.conn, made.id, made.score_key)
    shown = stores.rebuild(reader.conn, row, reader.cache)
    assert shown.revision == 2 and shown.match.log == []
    assert reader.kept_revision(made) == 1  # what was right at revision 1 stays right


def test_a_match_made_again_under_a_deleted_ones_id_is_never_caught_up_from_the_old_one(
        workers, monkeypatch):
    writer, reader = workers
    old = stores.create(writer.conn, Match.create(["Ann", "Bob"]))
    writer.enter(old, Start(0))
    reader.load(old)
    assert stores.delete(writer.conn, old.id, old.score_key)
    token = matches_module.secrets.token_urlsafe
    monkeypatch.setattr(matches_module.secrets, "token_urlsafe",
                        lambda size: old.id if size == 6 else token(size))
    again = stores.create(writer.conn, Match.create(["Cat", "Dan", "Eve"]))
    assert again.id == old.id
    writer.enter(again, Start(2))
    writer.enter(again, Lay((6, 6)))
    seen = reader.load(again)
    assert seen.match.table.players == ("Cat", "Dan", "Eve")
    assert state(seen.match) == state(replayed(reader, again))

"""The use cases of a match, called as the web, the CLI and the benchmarks call them."""

import pytest
from memory_store import UnitOfWorkInMemory

from scorekeeper.rules import Draw, IllegalMove, Lay, Match, NothingToUndo, Start, Table
from scorekeeper.rules.notation.events import UNDO
from scorekeeper.services import matches


@pytest.fixture
def uow():
    """In memory: the use cases' decisions, without a database."""
    return UnitOfWorkInMemory()


@pytest.fixture
def started(uow):
    """Ann and Bob, one tile each, Ann to lead: the hand ends with her first tile."""
    stored = matches.create_match(uow, Match(Table.create(["Ann", "Bob"], hand_size=1)))
    return matches.tap(uow, stored, 0, Start(0)).stored


def test_a_tap_on_the_latest_revision_is_written(uow, started):
    tapped = matches.lay(uow, started, 1, "6-6")
    assert isinstance(tapped, matches.Written)
    assert tapped.stored.revision == 2
    assert matches.open_match(uow, started.id, started.score_key).match.log[-1] == Lay((6, 6))


def test_the_same_tap_sent_twice_is_repeated_and_written_once(uow, started):
    matches.lay(uow, started, 1, "6-6")
    again = matches.lay(uow, started, 1, "6-6")
    assert isinstance(again, matches.Repeated)
    assert again.stored.revision == 2


def test_a_tap_after_the_other_phone_wrote_is_stale_with_what_it_entered(uow, started):
    matches.lay(uow, started, 1, "6-6")
    late = matches.draw(uow, started, 1)
    assert isinstance(late, matches.Stale)
    assert late.entered == [Lay((6, 6))]
    assert late.stored.revision == 2


def test_an_undo_the_other_phone_entered_is_named_as_an_undo(uow, started):
    matches.undo(uow, started, 1)
    late = matches.tap(uow, started, 1, Draw(1))
    assert isinstance(late, matches.Stale)
    assert late.entered == [UNDO]


def test_a_revision_the_match_never_reached_is_stale_with_nothing_entered(uow, started):
    late = matches.lay(uow, started, 7, "6-6")
    assert isinstance(late, matches.Stale)
    assert late.entered == []


def test_a_tap_on_a_match_deleted_after_it_was_loaded_is_gone_and_writes_nothing(uow, started):
    assert matches.delete_match(uow, started.id, started.score_key)
    assert matches.lay(uow, started, 1, "6-6") == matches.Gone(started.id)
    assert matches.draw(uow, started, 0) == matches.Gone(started.id)  # the re-read path
    assert uow.entries_stored() == 0


def test_a_move_the_rules_refuse_is_refused_with_their_reason(uow, started):
    refused = matches.pass_turn(uow, started, 1)
    assert isinstance(refused, matches.Refused)
    assert isinstance(refused.error, IllegalMove)
    assert matches.open_match(uow, started.id, started.score_key).revision == 1


def test_a_button_that_names_no_tile_is_refused_as_not_a_tile(uow, started):
    refused = matches.lay(uow, started, 1, "draw")
    assert isinstance(refused, matches.Refused)
    assert refused.error.kind == "not_a_tile"
    assert refused.error.message == "draw is not a tile"


def test_undo_on_an_empty_match_is_refused(uow):
    stored = matches.create_match(uow, Match(Table.create(["Ann", "Bob"])))
    refused = matches.undo(uow, stored, 0)
    assert isinstance(refused, matches.Refused)
    assert isinstance(refused.error, NothingToUndo)


def test_checking_the_end_of_a_hand_scores_it_without_writing(uow, started):
    ended = matches.lay(uow, started, 1, "6-6").stored
    checked = matches.preview_end(ended, {1: ((5, 5),)})
    assert isinstance(checked, matches.Previewed)
    assert checked.score.points == 10  # Bob's 5-5 is 10 pips: Ann scores 10
    assert matches.open_match(uow, started.id, started.score_key).revision == 2
    entered = matches.end_hand(uow, ended, 2, {1: ((5, 5),)})
    assert isinstance(entered, matches.Written)
    assert entered.stored.match.hands[0].end == checked.score
    assert matches.open_match(uow, started.id, started.score_key).revision == 3


def test_checking_impossible_pips_is_refused(uow, started):
    ended = matches.lay(uow, started, 1, "6-6").stored
    refused = matches.preview_end(ended, {1: 500})
    assert isinstance(refused, matches.Refused)
    assert refused.error.kind == "impossible_pips"


def test_a_scoreboard_opens_by_its_view_key_only(uow, started):
    board = matches.open_board(uow, started.id, started.view_key)
    assert board.revision == 1
    assert matches.board_match(uow, board).match.log == [Start(0)]
    assert matches.open_board(uow, started.id, started.score_key) is None
    assert matches.open_match(uow, started.id, started.view_key) is None


def test_an_imported_record_is_stored_with_its_moves(uow):
    record = ('{"format": "allfives-match/1", "players": ["Ann", "Bob"], "hand_size": 1,'
              ' "hands": [{"starter": "Ann", "moves": ["6-6"]}]}')
    stored = matches.import_record(uow, record)
    again = matches.open_match(uow, stored.id, stored.score_key)
    assert again.revision == 2
    assert again.match.phase == "end"

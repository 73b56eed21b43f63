"""The layout drawn (`web/geometry.py`, `web/drawing.py`): tiles as they lie, never on top of
one another, each against the tile it touches, a line kept to the table's width, and an SVG
with its words for screen readers and its colours from the stylesheet."""

import re

from hypothesis import given, settings
from strategies import matches

from scorekeeper.rules.match.record import read_record
from scorekeeper.rules.placement.laid import laid_tiles
from scorekeeper.web.scoring.drawing import drawn
from scorekeeper.web.scoring.geometry import HALF_WIDTH, placed


def hand_of(moves, rules="all-fives"):
    return read_record({"format": "allfives-match/1", "rules": rules, "players": ["Ann", "Bob"],
                        "hands": [{"starter": "Ann", "moves": moves}]}).hand


def touching(a, b) -> bool:
    """Two rectangles that share a stretch of an edge (and do not overlap)."""
    across = min(a.x1, b.x1) - max(a.x0, b.x0)
    down = min(a.y1, b.y1) - max(a.y0, b.y0)
    return (abs(across) < 1e-6 and down > 1e-6) or (abs(down) < 1e-6 and across > 1e-6)


def inner_half(piece):
    x, y, _ = piece.halves[0]
    if piece.double:
        return piece.rect
    return type(piece.rect)(x - 0.5, y - 0.5, x + 0.5, y + 0.5)


@settings(max_examples=150, deadline=None)
@given(matches())
def test_tiles_never_lie_on_one_another_and_each_touches_the_tile_it_was_laid_against(match):
    for hand in match.hands:
        moves = tuple(hand.moves)
        if not any(played.ends for played in moves):
            continue
        picture = placed(moves)
        laid = laid_tiles(moves)
        assert len(picture.pieces) == len(laid.tiles)
        assert len(picture.marks) == len(laid.open)
        rects = [piece.rect for piece in picture.pieces]
        for number, rect in enumerate(rects):
            assert not any(rect.overlaps(other) for other in rects[number + 1:])
        for piece, tile in zip(picture.pieces, laid.tiles, strict=True):
            assert [half[2] for half in piece.halves][0] == tile.tile[0]
            if tile.touches is not None and piece.gap is None:
                assert touching(inner_half(piece), picture.pieces[tile.touches].rect)
        if not match.table.rules.branches:  # a line snakes within the table's width
            assert all(-HALF_WIDTH - 1 <= r.x0 and r.x1 <= HALF_WIDTH + 1 for r in rects)
            assert all(piece.gap is None for piece in picture.pieces)


@settings(max_examples=40, deadline=None)
@given(matches())
def test_a_tile_once_placed_never_moves_as_the_hand_goes_on(match):
    """Stepping through a hand only adds or takes away the last tiles."""
    hand = match.hand
    if hand is None:
        return
    moves = tuple(hand.moves)
    for length in range(1, len(moves)):
        assert placed(moves).pieces[:len(placed(moves[:length]).pieces)] == \
            placed(moves[:length]).pieces


def test_a_double_lies_crosswise_and_each_open_end_is_marked_with_its_number():
    moves = tuple(hand_of(["6-4", "4-4@R", "3-6@L"]).moves)
    picture = placed(moves)
    lead, double, third = picture.pieces
    assert lead.rect.x1 - lead.rect.x0 == 2 and lead.rect.y1 - lead.rect.y0 == 1
    assert double.rect.x1 - double.rect.x0 == 1 and double.rect.y1 - double.rect.y0 == 2
    assert [(mark.end.value, mark.end.double) for mark in picture.marks] == [(3, False),
                                                                             (4, True)]
    assert third.rect.x1 == lead.rect.x0  # the 3-6 lies against the lead's 6


def test_the_svg_has_its_words_for_screen_readers_and_no_inline_style():
    moves = tuple(hand_of(["5-5", "5-2@5-5", "5-3@5-5", "5-0@5-5"], "all-fives-spinner").moves)
    svg = str(drawn(placed(moves), "large", "Layout: 2-5 [5-5*] 5-3", 3))
    assert svg.startswith('<svg class="drawn large"') and 'role="img"' in svg
    assert 'aria-label="Layout: 2-5 [5-5*] 5-3"' in svg
    assert svg.count('<g class="tile') == 4 and svg.count('class="tile latest"') == 1
    assert svg.count('class="tile spinner lead"') == 1
    assert re.findall(r'<g class="mark[^"]*">', svg) == ['<g class="mark">'] * 3 + [
        '<g class="mark unstarted">']  # 2, 3, 0 and the spinner's side no tile started
    assert " style=" not in svg and "fill=" not in svg  # colours come from the stylesheet


def test_a_hand_draws_the_same_picture_whichever_language_says_it():
    moves = tuple(hand_of(["6-4", "4-4@R"]).moves)
    english = drawn(placed(moves), "compact", "one", None)
    greek = drawn(placed(moves), "compact", "δύο", None)
    assert str(english).replace('"one"', '"δύο"') == str(greek)

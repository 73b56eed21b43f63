"""The standings of a small league, computed by hand: 4 teams, a double round robin of 12
cards of 4 games (2 for the win + 1 per game won), one card drawn; then a tie on points
broken by each tie-break in turn, and the players' table."""

from league_helpers import THREE_ONE, TWO_PLUS_GAMES, card, scheme

from scorekeeper.league import CardResult, GameResult, players_table, standings

TEAMS = ["Anchor", "Bell", "Crown", "Dolphin"]
SEASON = [
    card("Anchor", "Bell", 3, 1),      # Anchor 5, Bell 1
    card("Crown", "Dolphin", 2, 2),    # the drawn card: 3 each
    card("Anchor", "Crown", 4, 0),     # Anchor 6, Crown 0
    card("Bell", "Dolphin", 1, 3),     # Bell 1, Dolphin 5
    card("Anchor", "Dolphin", 3, 1),   # Anchor 5, Dolphin 1
    card("Bell", "Crown", 3, 1),       # Bell 5, Crown 1
    card("Bell", "Anchor", 1, 3),      # Bell 1, Anchor 5
    card("Dolphin", "Crown", 3, 1),    # Dolphin 5, Crown 1
    card("Crown", "Anchor", 1, 3),     # Crown 1, Anchor 5
    card("Dolphin", "Bell", 0, 4),     # Dolphin 0, Bell 6
    card("Dolphin", "Anchor", 1, 3),   # Dolphin 1, Anchor 5
    card("Crown", "Bell", 3, 1),       # Crown 5, Bell 1
]


def table(rows) -> list[tuple]:
    return [(row.team, row.played, row.won, row.drawn, row.lost, row.games_for,
             row.games_against, row.difference, row.points) for row in rows]


def test_a_whole_season_gives_the_table_worked_out_by_hand():
    rows = standings(TEAMS, SEASON, TWO_PLUS_GAMES)
    assert table(rows) == [
        # team      P  W  D  L   F   A  +/-  Pts
        ("Anchor", 6, 6, 0, 0, 19, 5, 14, 31),
        ("Bell", 6, 2, 0, 4, 11, 13, -2, 15),
        ("Dolphin", 6, 2, 1, 3, 10, 14, -4, 15),
        ("Crown", 6, 1, 1, 4, 8, 16, -8, 11),
    ]
    assert [row.position for row in rows] == [1, 2, 3, 4]


def test_a_drawn_card_is_a_draw_for_both_teams_and_worth_the_draw_points():
    rows = {row.team: row for row in standings(TEAMS, SEASON[1:2], TWO_PLUS_GAMES)}
    assert (rows["Crown"].drawn, rows["Dolphin"].drawn) == (1, 1)
    assert (rows["Crown"].points, rows["Dolphin"].points) == (1 + 2, 1 + 2)
    assert rows["Anchor"].played == 0


def test_three_for_a_win_one_for_a_draw_gives_no_points_for_games():
    rows = standings(TEAMS, SEASON, THREE_ONE)
    assert [(row.team, row.points) for row in rows] == [
        ("Anchor", 18), ("Dolphin", 7), ("Bell", 6), ("Crown", 4)]


def test_a_tie_on_points_is_broken_by_game_difference():
    rows = standings(TEAMS, SEASON, TWO_PLUS_GAMES)
    bell, dolphin = rows[1], rows[2]
    assert bell.points == dolphin.points == 15
    assert (bell.team, bell.difference) == ("Bell", -2)
    assert (dolphin.team, dolphin.difference) == ("Dolphin", -4)


MIDSEASON = [
    card("Anchor", "Crown", 3, 1),     # Anchor 3 pts, 3–1
    card("Bell", "Crown", 4, 0),       # Bell 3 pts, 4–0 ...
    card("Dolphin", "Bell", 3, 1),     # ... and 1–3 at Dolphin: 3 pts, 5–3
]


def test_a_tie_on_points_and_difference_is_broken_by_games_won():
    rows = standings(TEAMS, MIDSEASON, THREE_ONE)
    assert table(rows) == [
        ("Bell", 2, 1, 0, 1, 5, 3, 2, 3),
        ("Anchor", 1, 1, 0, 0, 3, 1, 2, 3),
        ("Dolphin", 1, 1, 0, 0, 3, 1, 2, 3),
        ("Crown", 2, 0, 0, 2, 1, 7, -6, 0),
    ]


def test_the_tie_breaks_apply_in_the_leagues_order():
    results = [card("Anchor", "Crown", 4, 0),   # Anchor: 3 pts, 4–0 (+4)
               card("Bell", "Dolphin", 4, 0),   # Bell: 3 pts, 5–3 (+2) ...
               card("Crown", "Bell", 3, 1)]     # ... Crown: 3 pts, 3–5 (-2)
    by_difference = standings(TEAMS, results, scheme(THREE_ONE, "game_difference",
                                                     "games_won"))
    by_games = standings(TEAMS, results, scheme(THREE_ONE, "games_won", "game_difference"))
    assert [row.team for row in by_difference] == ["Anchor", "Bell", "Crown", "Dolphin"]
    assert [row.team for row in by_games] == ["Bell", "Anchor", "Crown", "Dolphin"]


LEVEL = [
    card("Bell", "Anchor", 3, 1),      # Bell beats Anchor
    card("Anchor", "Crown", 3, 1),     # Anchor: 3 pts, 4–4
    card("Dolphin", "Bell", 3, 1),     # Bell: 3 pts, 4–4
]


def test_a_tie_on_points_difference_and_games_is_broken_head_to_head():
    rows = standings(TEAMS, LEVEL, THREE_ONE)
    assert [(row.team, row.points, row.difference, row.games_for) for row in rows] == [
        ("Dolphin", 3, 2, 3), ("Bell", 3, 0, 4), ("Anchor", 3, 0, 4), ("Crown", 0, -2, 1)]


def test_without_head_to_head_teams_level_on_everything_stand_by_name():
    rows = standings(TEAMS, LEVEL, scheme(THREE_ONE, "game_difference", "games_won"))
    assert [row.team for row in rows] == ["Dolphin", "Anchor", "Bell", "Crown"]


def test_head_to_head_counts_only_the_cards_between_the_tied_teams():
    # Crown beat both of them, but that says nothing about Anchor against Bell
    rows = standings(TEAMS, [*LEVEL, card("Crown", "Anchor", 4, 0),
                             card("Crown", "Bell", 4, 0)], THREE_ONE)
    order = [row.team for row in rows]
    assert order.index("Bell") < order.index("Anchor")


def test_the_players_table_counts_games_wins_and_points_per_game():
    games = (GameResult("singles", ("Ann",), ("Bob",), 250, 120),
             GameResult("singles", ("Cat",), ("Dan",), 90, 250),
             GameResult("pairs", ("Ann", "Cat"), ("Bob", "Dan"), 250, 240))
    rows = players_table([CardResult("Anchor", "Bell", games)])
    assert [(r.name, r.team, r.played, r.won, r.win_percent, r.per_game) for r in rows] == [
        ("Ann", "Anchor", 2, 2, 100, 250.0),
        ("Dan", "Bell", 2, 1, 50, 245.0),
        ("Cat", "Anchor", 2, 1, 50, 170.0),
        ("Bob", "Bell", 2, 0, 0, 180.0),
    ]

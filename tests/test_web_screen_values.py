"""Templates receive values, never a module: each screen of a match is drawn from what its
view worked out once per render (web/scoring/screens.py), in every phase."""

import re
import types

from flask import template_rendered


def test_no_screen_of_a_match_is_handed_a_module(app, client, phone):
    handed, drawn = [], set()

    def rendered(_app, template, context, **_extra):
        drawn.add(template.name)
        handed.extend((template.name, name) for name, value in context.items()
                      if isinstance(value, types.ModuleType))

    with template_rendered.connected_to(rendered, app):
        client.get("/new")
        table = phone()
        table.page()
        board = re.search(r'class="board-link" href="http://localhost([^"]+)"',
                          table.page().text).group(1)
        assert table.start(0).status_code == 200  # the lead: the tile buttons
        table.page(htmx=True)
        for address in (f"{table.url}/sheet", board, f"{board}/replay", f"{board}/sheet"):
            assert client.get(address).status_code == 200, address
    assert {"home/new.html", "match/table.html", "match/_table.html", "board/board.html",
            "replay/replay.html", "match/sheet.html", "board/sheet.html"} <= drawn, drawn
    assert handed == []

"""Taps: how many taps the table screen needs for each thing that happens at the table.

Over 1,000 random matches (the simulation with the rules' default setups), each
event is costed as the table screen offers it just before it happens:

* a tile laid is 1 tap iff its exact placement (tile and end) is one button of
  view.placements(match), else it cannot be entered in one tap ("not offered");
  the lead's orientation is not a choice the screen offers (one button per
  tile): a lead laid the other way round is the mirror image, same scores;
* a draw is 1 tap per tile drawn (the Draw button draws one), if Draw is shown;
* a pass is 1 tap, if Pass is shown; naming who leads is 1 tap (a name button);
* the end of a hand is one number field per player the form asks for, plus the
  confirm tap (the digits typed are reported beside it).

Then a few whole matches are entered end to end through the app (Flask test
client, CSRF on) by pressing exactly those buttons, checking that every tap is
one accepted request and that every tile laid was a button of the page.

    python bench/taps.py [--matches 1000] [--http-matches 10] [--seed 1]
"""

import argparse
import os
import random
import shutil
import sys
import tempfile
from collections import Counter

from lib.clients import TestClient
from lib.common import default_table, print_table, setup_name, write_results
from lib.people import Recorder, Scorer
from simulation import RandomTable

from scorekeeper import create_app
from scorekeeper.rules import Draw, Lay, Pass, Remaining, Start, normal
from scorekeeper.rules.notation.events import button_value
from scorekeeper.web.scoring import view


def cost_matches(count: int, seed: int) -> dict:
    """Taps per event over `count` simulated matches, as view.* offers them."""
    rng = random.Random(seed)
    events = Counter()   # events of each kind
    units = Counter()    # what the taps are counted per: tiles drawn for draws
    taps = Counter()     # taps needed
    not_offered = Counter()
    spread = {}          # kind -> Counter of taps per unit
    digits = 0
    fields = 0
    lead_flipped = 0
    setups = Counter()
    from scorekeeper.rules import Match

    for _ in range(count):
        table = default_table(rng)
        setups[setup_name(table)] += 1
        match = Match(table)
        sim = RandomTable(match, rng)
        while not match.is_over():
            phase = match.phase
            buttons = Counter()
            if phase in ("lead", "play"):
                buttons = Counter(p.move for p in view.placements(match))
            can_draw, can_pass = match.can_draw, match.can_pass
            end = view.end_of_hand(match) if phase == "end" else None
            players = len(match.table.players)
            event = sim.step()
            if isinstance(event, Lay):
                kind, unit = "tile laid", 1
                if phase == "lead" and tuple(event.tile) != normal(event.tile):
                    lead_flipped += 1
                value = button_value(normal(event.tile), event.end)
                cost = 1 if buttons[value] == 1 else None
            elif isinstance(event, Draw):
                kind, unit = "draw (per tile drawn)", event.count
                cost = event.count if can_draw else None
            elif isinstance(event, Pass):
                kind, unit = "pass", 1
                cost = 1 if can_pass else None
            elif isinstance(event, Start):
                kind, unit = "name who leads", 1
                cost = 1 if 0 <= event.seat < players else None
            elif isinstance(event, Remaining):
                kind, unit = "end of hand", 1
                held = dict(event.held)
                asked = [seat["seat"] for seat in end["seats"]]
                fields += len(asked)
                digits += sum(len(str(held[s] if isinstance(held.get(s), int)
                                      else sum(a + b for a, b in held.get(s, ()))))
                              for s in asked)
                cost = len(asked) + 1
            else:
                raise AssertionError(f"unexpected event {event!r}")
            events[kind] += 1
            units[kind] += unit
            if cost is None:
                not_offered[kind] += 1
            else:
                taps[kind] += cost
                spread.setdefault(kind, Counter())[cost / unit if unit else cost] += 1
    return {"events": events, "units": units, "taps": taps, "not_offered": not_offered,
            "spread": spread, "end_fields": fields, "end_digits": digits,
            "lead_flipped": lead_flipped, "setups": setups}


def through_app(count: int, seed: int) -> dict:
    """Enter `count` whole matches through the app by their buttons; count the requests."""
    folder = tempfile.mkdtemp(prefix="bench-taps-")
    try:
        app = create_app({"DATABASE": os.path.join(folder, "db.sqlite"),
                          "SECRET_KEY": "bench-taps"})
        requests = Counter()
        logged = Counter()
        tiles_drawn = 0
        problems = []
        for index in range(count):
            scorer = Scorer(index, seed, TestClient(app), Recorder(), False)
            if not scorer.new_match(False):
                problems.append(scorer.errors[-1])
                continue
            while not (scorer.match.is_over() and not scorer.pending):
                scorer.tick()
                if scorer.broken:
                    problems.append(scorer.errors[-1])
                    break
            requests.update(scorer.kinds)
            for event in scorer.match.log:
                logged[type(event).__name__] += 1
                if isinstance(event, Draw):
                    tiles_drawn += event.count
        return {"matches": count, "requests": dict(requests), "events": dict(logged),
                "tiles_drawn": tiles_drawn, "problems": problems[:10],
                "one_request_per_tap": not problems
                and requests["lay"] == logged["Lay"] and requests["draw"] == tiles_drawn
                and requests["pass"] == logged["Pass"] and requests["end"] == logged["Remaining"]
                and requests["start"] == logged["Start"]}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--http-matches", type=int, default=10,
                        help="whole matches also entered through the app (0 to skip)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    app = create_app({"DATABASE": ":memory:", "SECRET_KEY": "bench-taps"})
    with app.test_request_context("/"):  # view.* translates its words: it needs a request
        found = cost_matches(args.matches, args.seed)
    checked = through_app(args.http_matches, args.seed) if args.http_matches else None

    order = ["tile laid", "draw (per tile drawn)", "pass", "name who leads", "end of hand"]
    rows, per_kind = [], {}
    for kind in order:
        events, units, taps = found["events"][kind], found["units"][kind], found["taps"][kind]
        offered_units = units - (found["not_offered"][kind] if kind != "draw (per tile drawn)"
                                 else 0)
        spread = found["spread"].get(kind, Counter())
        per = taps / offered_units if offered_units else float("nan")
        per_kind[kind] = {"events": events, "units": units, "taps": taps,
                          "taps_per_unit": round(per, 3),
                          "min": min(spread) if spread else None,
                          "max": max(spread) if spread else None,
                          "not_offered": found["not_offered"][kind]}
        rows.append([kind, events, units, taps, per, per_kind[kind]["min"] or 0,
                     per_kind[kind]["max"] or 0, found["not_offered"][kind]])
    print_table(f"Taps per table event over {args.matches:,} random matches "
                f"(setups: {', '.join(f'{k} {v}' for k, v in sorted(found['setups'].items()))})",
                ["event", "events", "units", "taps", "taps/unit", "min", "max", "not offered"],
                rows)
    print(f"\nend of hand: {found['end_fields']:,} number fields over "
          f"{found['events']['end of hand']:,} hands "
          f"({found['end_fields'] / max(1, found['events']['end of hand']):.2f} per hand), "
          f"{found['end_digits']:,} digits typed; "
          f"leads laid the other way round (entered by their one button): "
          f"{found['lead_flipped']:,}")
    if checked:
        print(f"through the app ({checked['matches']} whole matches, Flask test client): "
              f"requests {checked['requests']}, tiles drawn {checked['tiles_drawn']}; "
              f"one accepted request per tap: {checked['one_request_per_tap']}")
        for problem in checked["problems"]:
            print(f"  problem: {problem}")
    met = all(per_kind[k]["taps_per_unit"] == 1 and not per_kind[k]["not_offered"]
              and per_kind[k]["max"] == 1
              for k in ("tile laid", "draw (per tile drawn)", "pass"))
    result = {"matches": args.matches, "seed": args.seed, "per_kind": per_kind,
              "end_of_hand": {"fields": found["end_fields"], "digits": found["end_digits"],
                              "hands": found["events"]["end of hand"]},
              "leads_flipped": found["lead_flipped"], "through_app": checked,
              "targets": {"one_tap_per_tile_draw_pass": {"met": met and (
                  checked is None or checked["one_request_per_tap"])}}}
    print_table("Targets", ["target", "met"],
                [["exactly 1 tap per tile laid, per tile drawn, per pass",
                  "yes" if result["targets"]["one_tap_per_tile_draw_pass"]["met"] else "NO"]])
    write_results("taps", result)
    return 0


if __name__ == "__main__":
    sys.exit(main())

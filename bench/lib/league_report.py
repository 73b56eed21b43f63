"""League night's figures from a run, the targets they meet or not, and the printed tables."""

import sys

from .common import percentile, print_table, summary_ms
from .league import FLOOR, FLOORS, TARGET_MOVE_OVER_FLOOR, TARGET_MOVE_P99_MS, figures


def night_result(args, night: dict, check: dict, argv=None) -> dict:
    """Everything the JSON result file holds, targets included."""
    measured, rows = night["measured"], night["recorder"].rows
    scorers, viewers, cpu = night["scorers"], night["viewers"], night["cpu"]
    server_log = night["server_log"].splitlines()
    warnings = [line for line in server_log if "WARNING" in line or "ERROR" in line]
    generator = cpu["generator"]
    server_cpu = (cpu["server_after"] - cpu["server_before"]) if "server_before" in cpu else None
    answered = [row for row in rows if row[0] not in ("setup", "generator") and row[4]]
    result = {
        "command": "python bench/league_night.py " + " ".join(argv or sys.argv[1:]),
        "server_command": " ".join(["scorekeeper" if args.server == "serve"
                                    else "waitress-serve", *night["command"][3:]]),
        "tables": args.tables, "viewers_per_table": args.viewers, "interval_s": args.interval,
        "seconds": round(measured, 1), "warmup_s": args.warmup,
        "start": "part-way through a match" if not args.fresh_start else "new matches",
        "log_length_at_start": {"median": percentile(night["log_length"], 0.5),
                                "max": max(night["log_length"])},
        "floor_endpoint": f"GET {FLOOR}",
        "offered_per_s": {"moves": round(args.tables / args.interval, 1),
                          "polls": round(args.tables * args.viewers / args.interval, 1),
                          "floor": round(len(night["floors"]) / args.floor_interval, 1)},
        "move": figures(rows, "move"),
        "move_by_kind": {kind: figures([r for r in rows if r[1] == kind], "move")
                         for kind in sorted({r[1] for r in rows if r[0] == "move"})},
        "poll": figures(rows, "poll"),
        "league_cards": bool(getattr(args, "league", False)),
        "public_viewers": len([v for v in viewers if hasattr(v, "errors")]),
        "public": figures(rows, "public"),
        "poll_200": summary_ms([r[3] for r in rows if r[0] == "poll" and r[4] == 200]),
        "poll_304": summary_ms([r[3] for r in rows if r[0] == "poll" and r[4] == 304]),
        "floors": {path: figures(rows, f"floor {path}") for path in FLOORS},
        "new_match": figures(rows, "new match"),
        "generator_errors": [r[5] for r in rows if r[0] == "generator"][:10],
        "table_errors": [e for person in [*scorers, *viewers]
                         for e in getattr(person, "errors", [])][:20],
        "late_ticks": night["late"],
        "retries_on_closed_keepalive": sum(c.client.retries for c in [*scorers, *viewers]),
        "achieved_per_s": {
            "moves": round(sum(1 for r in rows if r[0] == "move") / measured, 1),
            "polls": round(sum(1 for r in rows if r[0] == "poll") / measured, 1)},
        "polls_held_back": _held_back(rows, measured),
        "server_cpu_percent": round(100 * server_cpu / measured, 1) if server_cpu else None,
        "server_cpu_ms_per_request": round(1000 * server_cpu / len(answered), 3)
        if server_cpu and answered else None,
        "generator_cpu_percent": round(100 * generator / (measured + args.warmup), 1),
        "generator_processes": night["generators"],
        "workers": getattr(args, "workers", None),
        "threads": args.threads,
        "busy_503": summary_ms([row[3] for row in rows if row[4] == 503]),
        "load_1min_start_end": night["load_1min_start_end"],
        "server_warnings": warnings[:20],
        "server_warning_count": len(warnings),
        "check_304_without_rebuild": check,
    }
    result["targets"] = _targets(result, check)
    return result


def _held_back(rows, measured: float) -> dict:
    """Why fewer polls are answered than the night asks for: the ticks a viewer skipped
    because the server had asked it to wait (Scorekeeper-Poll-After or a 503's Retry-After),
    and the answers that asked it to."""
    slowed = [row[3] for row in rows if row[0] == "poll slowed"]
    return {"skipped_per_s": round(sum(1 for r in rows if r[0] == "poll held back")
                                   / measured, 1),
            "answers_asking_to_wait": len(slowed),
            "mean_wait_asked_s": round(sum(slowed) / len(slowed), 2) if slowed else 0}


def _targets(result: dict, check: dict) -> dict:
    floor, move, poll = result["floors"][FLOOR], result["move"], result["poll"]
    errors = move["errors"] + poll["errors"] + sum(f["errors"] for f in result["floors"].values())
    errors += result["public"]["errors"]
    errors += len(result["generator_errors"]) + result["new_match"]["errors"]
    errors += len(result["table_errors"])
    return {
        "errors": {"value": errors, "target": 0, "met": errors == 0},
        "move_p99_ms": {"value": move.get("p99_ms"), "target": TARGET_MOVE_P99_MS,
                        "met": move.get("p99_ms", 1e9) <= TARGET_MOVE_P99_MS},
        "move_p50_over_floor_p50": {
            "value": round(move["p50_ms"] / floor["p50_ms"], 2)
            if move.get("p50_ms") and floor.get("p50_ms") else None,
            "target": TARGET_MOVE_OVER_FLOOR,
            "met": bool(move.get("p50_ms") and floor.get("p50_ms")
                        and move["p50_ms"] <= TARGET_MOVE_OVER_FLOOR * floor["p50_ms"])},
        "unchanged_poll_304_without_rebuild": {"value": check["ok"], "met": check["ok"]},
    }


def print_night(args, result: dict) -> None:
    """The latency table, the rates and CPU, the first errors, and the targets."""
    move, poll, check = result["move"], result["poll"], result["check_304_without_rebuild"]
    table_rows = []
    for label, data in [("move (all taps)", move),
                        *[(f"  {kind}", data) for kind, data in result["move_by_kind"].items()],
                        ("poll (all)", poll),
                        ("  poll answered 200", {**result["poll_200"], "errors": ""}),
                        ("  poll answered 304", {**result["poll_304"], "errors": ""}),
                        ("public league page", result["public"]),
                        *[(f"floor GET {path}", data)
                          for path, data in result["floors"].items()],
                        ("new match (mid-run)", result["new_match"])]:
        table_rows.append([label, data.get("count", 0), data.get("p50_ms", float("nan")),
                           data.get("p95_ms", float("nan")), data.get("p99_ms", float("nan")),
                           data.get("max_ms", float("nan")), data.get("errors", 0)])
    cards = (f" playing games of league cards, {result['public_viewers']} people following the "
             f"public league page" if result["league_cards"] else "")
    print_table(f"League night: {args.tables} tables × (1 scorer + {args.viewers} viewers)"
                f"{cards}, "
                f"a tap or poll every {args.interval:g} s each, {result['seconds']:.0f} s "
                f"measured, {args.server} --workers={getattr(args, 'workers', None) or 'its own'}"
                f"{f' --threads={args.threads or 8}' if args.server == 'waitress' else ''}",
                ["requests", "count", "p50 ms", "p95 ms", "p99 ms", "max ms", "errors"],
                table_rows)
    polls_304 = poll["statuses"].get("304", 0)
    share = polls_304 / poll["count"] if poll.get("count") else 0
    print(f"\npolls answered 304: {polls_304:,} of {poll.get('count', 0):,} ({share:.0%}); "
          f"an unchanged poll rebuilt {check['rebuilds']} matches and rendered "
          f"{check['templates_rendered']} templates")
    held = result["polls_held_back"]
    print(f"polls held back: {held['skipped_per_s']}/s not sent because the server had asked "
          f"to wait; {held['answers_asking_to_wait']:,} answers asked it (mean "
          f"{held['mean_wait_asked_s']} s)")
    busy = result["busy_503"]
    print(f"achieved: {result['achieved_per_s']['moves']} taps/s, "
          f"{result['achieved_per_s']['polls']} polls/s; server CPU "
          f"{result['server_cpu_percent']}% of one core "
          f"({result['server_cpu_ms_per_request']} ms per request), load generator "
          f"{result['generator_cpu_percent']}% in {result['generator_processes']} "
          f"process(es); late ticks {result['late_ticks']}; "
          f"server warnings {result['server_warning_count']}; load average (1 min) at start "
          f"and end {result['load_1min_start_end']}")
    if busy.get("count"):
        print(f"turned away busy (503): {busy['count']:,}, answered in p50 {busy['p50_ms']} ms, "
              f"p99 {busy['p99_ms']} ms, max {busy['max_ms']} ms")
    for line in result["table_errors"][:5] + result["generator_errors"][:5]:
        print(f"  error: {line}")
    targets = result["targets"]
    print_table("Targets", ["target", "value", "met"],
                [["0 errors", targets["errors"]["value"], _met(targets["errors"])],
                 [f"move p99 ≤ {TARGET_MOVE_P99_MS} ms", move.get("p99_ms", float("nan")),
                  _met(targets["move_p99_ms"])],
                 [f"move p50 ≤ {TARGET_MOVE_OVER_FLOOR}× floor p50 (GET {FLOOR})",
                  targets["move_p50_over_floor_p50"]["value"] or float("nan"),
                  _met(targets["move_p50_over_floor_p50"])],
                 ["unchanged poll → 304, no rebuild", str(check["ok"]),
                  _met(targets["unchanged_poll_304_without_rebuild"])]])


def _met(target: dict) -> str:
    return "yes" if target["met"] else "NO"

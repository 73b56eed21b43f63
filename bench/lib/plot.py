"""The capacity curve drawn as an SVG by hand: no plotting library for one chart."""

import math
from html import escape

WIDTH, HEIGHT = 760, 460
LEFT, RIGHT, TOP, BOTTOM = 70, 170, 50, 70
LOW_MS, HIGH_MS = 1, 30_000
SERIES = [("move_p99_ms", "move p99", "#b3261e", ""),
          ("move_p50_ms", "move p50", "#e8827a", ""),
          ("poll_p99_ms", "poll p99", "#0b6e4f", "6 4"),
          ("floor_p50_ms", "static floor p50", "#777777", "2 3"),
          ("busy_p99_ms", "503 answered, p99", "#1a4fa0", "1 4")]
"""The figure, its label, its colour, its dashes."""


def _y(ms: float) -> float:
    ms = min(max(ms, LOW_MS), HIGH_MS)
    span = math.log10(HIGH_MS) - math.log10(LOW_MS)
    return TOP + (HEIGHT - TOP - BOTTOM) * (1 - (math.log10(ms) - math.log10(LOW_MS)) / span)


def capacity_svg(runs: list[dict], target_ms: float, best: int | None, caption: str) -> str:
    """Latency (log scale) against tables, one point per run, errors written above each."""
    plot_width = WIDTH - LEFT - RIGHT
    step = plot_width / max(1, len(runs) - 1) if len(runs) > 1 else 0
    xs = [LEFT + (index * step if len(runs) > 1 else plot_width / 2)
          for index in range(len(runs))]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
             f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
             f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
             f'<text x="{LEFT}" y="24" font-size="15" font-weight="bold">League night: latency '
             f'against tables (3 viewers each)</text>']
    for ms in (1, 10, 100, 1000, 10_000):
        y = _y(ms)
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" '
                     f'stroke="#dddddd"/><text x="{LEFT - 8}" y="{y + 4:.1f}" '
                     f'text-anchor="end">{ms:,} ms</text>')
    y = _y(target_ms)
    parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" '
                 f'stroke="#b3261e" stroke-dasharray="8 4" stroke-width="1"/>'
                 f'<text x="{WIDTH - RIGHT + 6}" y="{y + 4:.1f}" fill="#b3261e">target: move '
                 f'p99 ≤ {target_ms:g} ms</text>')
    for x, run in zip(xs, runs, strict=True):
        colour = "#b3261e" if run["errors"] else "#333333"
        parts.append(f'<text x="{x:.1f}" y="{HEIGHT - BOTTOM + 20}" text-anchor="middle">'
                     f'{run["tables"]}</text><text x="{x:.1f}" y="{TOP - 8}" '
                     f'text-anchor="middle" fill="{colour}">{run["errors"]:,} err</text>')
        if best == run["tables"]:
            parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{TOP}" '
                         f'y2="{HEIGHT - BOTTOM}" stroke="#0b6e4f" stroke-width="2" '
                         f'opacity="0.4"/>')
    for key, _label, colour, dashes in SERIES:
        points = [(x, run[key]) for x, run in zip(xs, runs, strict=True) if run.get(key)]
        if not points:
            continue
        path = " ".join(f"{x:.1f},{_y(ms):.1f}" for x, ms in points)
        parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" '
                     f'stroke-width="2" stroke-dasharray="{dashes}"/>')
        parts += [f'<circle cx="{x:.1f}" cy="{_y(ms):.1f}" r="3" fill="{colour}"/>'
                  for x, ms in points]
    for index, (_key, label, colour, dashes) in enumerate(SERIES):
        y = TOP + 40 + 20 * index
        parts.append(f'<line x1="{WIDTH - RIGHT + 6}" x2="{WIDTH - RIGHT + 34}" y1="{y}" '
                     f'y2="{y}" stroke="{colour}" stroke-width="2" '
                     f'stroke-dasharray="{dashes}"/><text x="{WIDTH - RIGHT + 40}" '
                     f'y="{y + 4}">{escape(label)}</text>')
    parts.append(f'<text x="{LEFT + plot_width / 2:.1f}" y="{HEIGHT - BOTTOM + 40}" '
                 f'text-anchor="middle">tables scoring at once'
                 f'{f" (capacity: {best})" if best else ""}</text>')
    parts.append(f'<text x="{LEFT}" y="{HEIGHT - 10}" font-size="10" fill="#555555">'
                 f'{escape(caption)}</text></svg>')
    return "\n".join(parts) + "\n"

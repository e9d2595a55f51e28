"""Files and tables from a tournament summary."""

from __future__ import annotations

import json
import math
import os
from typing import Any, Mapping, Union

from .play import format_record

__all__ = ["write_outputs", "format_summary", "plot_ratings", "json_safe"]


def _fmt(x: float, digits: int = 0) -> str:
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:+.{digits}f}" if digits == 0 else f"{x:.{digits}f}"


def format_summary(summary: Mapping[str, Any]) -> str:
    """Markdown tables: ratings with 95 % intervals (and the agents left unrated), then every
    pairing's W/D/L, score, points, forfeits by each side (with their reasons) and void games;
    a void pairing (no game counted: an engine did not start) says so instead of a score."""
    lines = []
    ratings = summary["ratings"]
    if "ratings" in ratings:
        lines += [
            f"Ratings (Elo, {ratings['anchor']} = 0; 95 % intervals; Davidson model, prior {ratings['prior']:g}: half a virtual win and half a virtual loss per unit, per pairing):",
            "",
            "| agent | rating | 95 % interval |",
            "|---|---:|---|",
        ]
        order = sorted(ratings["ratings"].items(), key=lambda kv: -kv[1]["elo"])
        for name, r in order:
            lines.append(f"| `{name}` | {_fmt(r['elo'])} | [{_fmt(r['low'])}, {_fmt(r['high'])}] |")
        lines.append("")
    elif "error" in ratings:
        lines += [f"Ratings: {ratings['error']}", ""]
    unrated = summary.get("unrated", [])
    if unrated:
        lines += ["Not rated (no game counted): " + ", ".join(f"`{n}`" for n in unrated), ""]
    lines += [
        "| pairing | games | W-D-L | score (95 %) | points per game (95 %) | forfeits (first/second) | void |",
        "|---|---:|---|---|---|---|---:|",
    ]
    void_pairs = {(v["a"], v["b"]) for v in summary.get("void_pairings", [])}
    for p in summary["pairs"]:
        s, ppg = p["score"], p["points_per_game"]
        fa, fb = p.get("forfeited", (0, 0))
        reasons = ", ".join(f"{k} {n}" for k, n in sorted(p["forfeits"].items()))
        forfeits = f"{fa}/{fb}" + (f" ({reasons})" if reasons else "")
        if (p["a"], p["b"]) in void_pairs:
            # No game counted: the zeros of W-D-L and the intervals would read as results.
            lines.append(f"| `{p['a']}` v `{p['b']}` | 0 | void: an engine did not start | - | - | {forfeits} | {p['void']} |")
            continue
        lines.append(
            f"| `{p['a']}` v `{p['b']}` | {p['games']} | {p['wins']}-{p['draws']}-{p['losses']} | "
            f"{s['mean']:.3f} [{s['low']:.3f}, {s['high']:.3f}] | "
            f"{ppg['mean']:+.3f} [{ppg['low']:+.3f}, {ppg['high']:+.3f}] | {forfeits} | {p['void']} |"
        )
    return "\n".join(lines) + "\n"


def plot_ratings(summary: Mapping[str, Any], path: Union[str, "os.PathLike[str]"]) -> bool:
    """Ratings with 95 % error bars as a picture (matplotlib); returns False when matplotlib is missing."""
    ratings = summary["ratings"].get("ratings")
    if not ratings:
        return False
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    order = sorted(ratings.items(), key=lambda kv: kv[1]["elo"])
    names = [n for n, _ in order]
    elo = [r["elo"] for _, r in order]
    err = [[r["elo"] - r["low"] for _, r in order], [r["high"] - r["elo"] for _, r in order]]
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(names) + 1.5))
    ax.errorbar(elo, range(len(names)), xerr=err, fmt="o", capsize=4)
    ax.set_yticks(range(len(names)), names)
    ax.axvline(0.0, color="grey", lw=0.8)
    ax.set_xlabel(f"Elo ({summary['ratings']['anchor']} = 0), 95 % intervals")
    ax.set_title(f"{summary['game']}: {summary['games_per_pair']} games per pairing")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def json_safe(x: Any) -> Any:
    """Infinite floats (the Elo of a 0 % or 100 % score) as null: strict JSON has no Infinity."""
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: json_safe(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [json_safe(v) for v in x]
    return x


def write_outputs(summary: Mapping[str, Any], out: Union[str, "os.PathLike[str]"]) -> dict[str, str]:
    """Writes ``summary.json`` (without the records), ``games.pdn``, ``games.jsonl``, ``summary.md``
    and ``ratings.png`` (when matplotlib is installed) into ``out``; returns the paths written."""
    os.makedirs(out, exist_ok=True)
    paths = {k: os.path.join(out, f) for k, f in (("summary", "summary.json"), ("games", "games.pdn"), ("records", "games.jsonl"), ("table", "summary.md"))}
    records = summary.get("records", [])
    with open(paths["summary"], "w", encoding="utf-8") as f:
        json.dump(json_safe({k: v for k, v in summary.items() if k != "records"}), f, indent=1, allow_nan=False)
        f.write("\n")
    with open(paths["games"], "w", encoding="utf-8") as f:
        f.write("\n".join(format_record(r) for r in records))
    with open(paths["records"], "w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(json_safe(r), allow_nan=False) + "\n")
    with open(paths["table"], "w", encoding="utf-8") as f:
        f.write(format_summary(summary))
    png = os.path.join(out, "ratings.png")
    if plot_ratings(summary, png):
        paths["plot"] = png
    return paths

"""The report's figures for a paper, as SVG and PNG (`crm-tui results --figures DIR`).

matplotlib's object-oriented API without pyplot (no global figure state, no display: the
Agg canvas draws PNG, the SVG backend the SVG). Imported only by the command that writes
figures, so the app and the other commands never load matplotlib. The SVG files carry no
date and a fixed id salt, so the same report gives the same files.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from crm_tui.study.results.analysis import ALL, HUMANS, Rate
from crm_tui.study.results.summary import Report

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

NOT_ENOUGH = "not enough data"
DPI = 150


def write_figures(report: Report, folder: Path) -> list[Path]:
    """Each figure as NAME.svg and NAME.png in `folder` (made if missing); the paths."""
    import matplotlib

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    with matplotlib.rc_context({"svg.hashsalt": "crm-tui", "font.size": 9}):
        for name, draw in FIGURES.items():
            figure = draw(report)
            for suffix in ("svg", "png"):
                path = folder / f"{name}.{suffix}"
                metadata = {"Date": None} if suffix == "svg" else {}
                figure.savefig(path, format=suffix, dpi=DPI, metadata=metadata)
                written.append(path)
    return written


def _figure(width: float = 7.0, height: float = 3.6) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _empty(axes: Axes, what: str) -> None:
    axes.text(0.5, 0.5, f"{what}: {NOT_ENOUGH}", ha="center", va="center")
    axes.set_axis_off()


def _error(rate: Rate | None) -> tuple[float, float, float]:
    """Value and the distances down and up to its interval's ends, in %."""
    if rate is None or rate.value is None:
        return np.nan, 0.0, 0.0
    if rate.interval is None:
        return rate.value * 100, 0.0, 0.0
    value = rate.value * 100
    return value, value - rate.interval.low * 100, rate.interval.high * 100 - value


def accuracy_by_family(report: Report) -> Figure:
    """Success per family with its interval: the humans and each agent side by side."""
    figure = _figure()
    axes = figure.add_subplot()
    statistics = report.statistics
    if statistics is None or not any(r.success.get(ALL) for r in statistics.rates):
        _empty(axes, "Success by family")
        return figure
    families = [f for f in dict.fromkeys(f for r in statistics.rates for f in r.success)]
    families = [f for f in families if f != ALL] + [ALL]
    solvers = statistics.rates
    width = 0.8 / len(solvers)
    x = np.arange(len(families))
    for n, rates in enumerate(solvers):
        values = [_error(rates.success.get(f)) for f in families]
        axes.bar(
            x + (n - (len(solvers) - 1) / 2) * width,
            [v for v, _, _ in values],
            width,
            yerr=np.array([[d for _, d, _ in values], [u for _, _, u in values]]),
            capsize=2,
            label=rates.solver,
        )
    axes.set_xticks(x, families)
    axes.set_ylim(0, 105)
    axes.set_ylabel("success %")
    level = f"{statistics.confidence * 100:g}%"
    axes.set_title(f"Success by task family ({level} bootstrap intervals over items)")
    axes.legend(fontsize=7, ncols=min(3, len(solvers)), loc="upper left")
    return figure


def pass_hat_k_curves(report: Report) -> Figure:
    """pass^k over all exact-match items, per agent, with its interval as a band."""
    figure = _figure(5.0, 3.6)
    axes = figure.add_subplot()
    statistics = report.statistics
    curves = [] if statistics is None else [r for r in statistics.rates if ALL in r.pass_hat_k]
    if not curves:
        _empty(axes, "pass^k")
        return figure
    for rates in curves:
        curve = rates.pass_hat_k[ALL]
        ks = sorted(curve)
        values = [_error(curve[k]) for k in ks]
        centre = np.array([v for v, _, _ in values])
        axes.plot(ks, centre, marker="o", label=rates.solver)
        axes.fill_between(
            ks,
            centre - [d for _, d, _ in values],
            centre + [u for _, _, u in values],
            alpha=0.2,
        )
    axes.set_xlabel("k (trials that must all succeed)")
    axes.set_ylabel("pass^k %")
    axes.set_ylim(0, 100)
    axes.set_title("pass^k, exact-match families")
    axes.legend(fontsize=7)
    return figure


def realism_levels(report: Report) -> Figure:
    """How many raters chose each level, per object: stacked bars."""
    targets = report.realism.targets
    figure = _figure(6.0, max(2.0, 0.3 * len(targets) + 1.2))
    axes = figure.add_subplot()
    if not targets:
        _empty(axes, "Realism ratings")
        return figure
    levels = sorted(report.realism.level_labels) or [1, 2, 3, 4, 5]
    left = np.zeros(len(targets))
    y = np.arange(len(targets))
    colours = matplotlib_colours(len(levels))
    for level, colour in zip(levels, colours):
        counts = np.array([t.counts.get(level, 0) for t in targets], dtype=float)
        axes.barh(
            y,
            counts,
            left=left,
            color=colour,
            label=report.realism.level_labels.get(level, str(level)),
        )
        left += counts
    dont_know = np.array([t.dont_know for t in targets], dtype=float)
    axes.barh(y, dont_know, left=left, color="0.85", label="Don't know")
    axes.set_yticks(y, [t.target for t in targets])
    axes.invert_yaxis()
    axes.set_xlabel("ratings")
    axes.set_title("Realism levels per object")
    axes.legend(fontsize=7, loc="lower right")
    return figure


def matplotlib_colours(n: int) -> list[tuple[float, float, float, float]]:
    from matplotlib import colormaps

    return [colormaps["RdYlGn"](value) for value in np.linspace(0.1, 0.9, n)]


def time_per_item(report: Report) -> Figure:
    """Humans' median active time per item by family; agents' median turns per item."""
    figure = _figure()
    humans_axes, agents_axes = figure.subplots(1, 2)
    times = [] if report.statistics is None else report.statistics.item_times
    by_family: dict[str, list[float]] = {}
    for t in times:
        if t.human_active_s is not None:
            by_family.setdefault(t.family, []).append(t.human_active_s)
    if by_family:
        humans_axes.boxplot(list(by_family.values()), tick_labels=list(by_family))
        humans_axes.set_ylabel("active seconds (median per item)")
        humans_axes.set_title(f"{HUMANS}: time per item")
    else:
        _empty(humans_axes, "Humans' time")
    by_agent: dict[str, list[float]] = {}
    for t in times:
        for agent, turns in t.agent_turns.items():
            by_agent.setdefault(agent, []).append(turns)
    if by_agent:
        agents_axes.boxplot(list(by_agent.values()), orientation="horizontal")
        agents_axes.set_yticks(range(1, len(by_agent) + 1), list(by_agent), fontsize=6)
        agents_axes.set_xlabel("turns (median per item)")
        agents_axes.set_title("Agents: turns per item")
    else:
        _empty(agents_axes, "Agents' turns")
    return figure


FIGURES: dict[str, Callable[[Report], Figure]] = {
    "accuracy_by_family": accuracy_by_family,
    "pass_hat_k": pass_hat_k_curves,
    "realism_levels": realism_levels,
    "time_per_item": time_per_item,
}

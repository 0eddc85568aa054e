"""Render a `Report`: display tables (terminal, Markdown, the app), a long-format CSV for
spreadsheets and scripts, and JSON. Percentages in display tables, fractions in files."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass

from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from crm_tui.study.results.process import Process, Sight
from crm_tui.study.results.stats import Interval, Spread
from crm_tui.study.results.summary import ALL, Report, ordered_families

DASH = "—"
UNBOUNDED = 10_000  # columns: a table's natural width, measured without a terminal's limit


@dataclass(frozen=True)
class TableView:
    """A titled grid of strings: what a rich Table, a Markdown table or a DataTable shows."""

    title: str
    columns: list[str]
    rows: list[list[str]]


def _pct(value: float | None) -> str:
    return DASH if value is None else f"{value * 100:.1f}"


def pct_n(value: float | None, n: int) -> str:
    """A percentage with the number it is over: an agent's over the records it has, the
    paper's over all 130 queries of a family, side by side."""
    return DASH if value is None else f"{value * 100:.1f} (n={n:,})"


def _pct_interval(interval: Interval | None) -> str:
    return DASH if interval is None else f"{interval.low * 100:.1f}–{interval.high * 100:.1f}"


def _seconds(spread: Spread | None) -> tuple[str, str]:
    if spread is None:
        return DASH, DASH
    return f"{spread.median / 1000:.0f}", f"{spread.q1 / 1000:.0f}–{spread.q3 / 1000:.0f}"


def report_tables(report: Report) -> list[TableView]:
    tables = [_success_table(report), _humans_table(report)]
    if report.agents:
        tables.append(_agents_table(report))
    tables += [_realism_table(report), _alpha_table(report), _flags_table(report)]
    if report.disputed:
        tables.append(_disputed_table(report))
    if report.process is not None and report.process.summaries:
        tables.append(process_table(report.process))
    return tables


def _success_table(report: Report) -> TableView:
    """Side by side, in the paper's Table 2 layout: one row per participant."""
    columns = [f.abbrev for f in ordered_families()] + [ALL]
    by_family = {row.family: row for row in report.families}
    rows = [
        ["Humans"]
        + [
            pct_n(by_family[c].humans.accuracy, by_family[c].humans.answers)
            if c in by_family
            else DASH
            for c in columns
        ]
    ]
    for agent in report.agents:
        for name, attribute in (
            ("re-scored", "rescored_success"),
            ("CRMArena reward", "crmarena_success"),
        ):
            results = {c: by_family[c].agents.get(agent.label) for c in by_family}
            rows.append(
                [f"{agent.label} ({name})"]
                + [
                    pct_n(getattr(result, attribute), result.answers)
                    if (result := results.get(c)) is not None
                    else DASH
                    for c in columns
                ]
            )
    for paper in report.paper:  # labelled "[paper]": reference rows, not this study's items
        rows.append(
            [paper.label] + [pct_n(paper.success[c] / 100, paper.items(c)) for c in columns]
        )
    notes = ["% of n answers", "knowledge QA is F1"]
    if report.paper:
        notes.append("[paper]: the paper's published results, over all of CRMArena's queries")
    return TableView(f"Success by task family ({'; '.join(notes)})", ["Who"] + columns, rows)


def _humans_table(report: Report) -> TableView:
    rows = []
    for row in report.families:
        median, iqr = _seconds(row.humans.active_ms)
        rows.append(
            [
                row.family,
                f"{row.humans.items_answered} of {row.items}",
                str(row.humans.answers),
                _pct(row.humans.accuracy),
                _pct_interval(row.humans.interval),
                median,
                iqr,
                _pct(row.humans.agreement),
            ]
        )
    return TableView(
        "Humans",
        [
            "Family",
            "Items answered",
            "Answers",
            "Accuracy %",
            "95% CI",
            "Active s (median)",
            "Active s (IQR)",
            "Agreement %",
        ],
        rows,
    )


def _agents_table(report: Report) -> TableView:
    most = max(agent.trials for agent in report.agents)
    rows = []
    for agent in report.agents:
        for row in report.families:
            result = row.agents.get(agent.label)
            if result is None:
                continue
            rows.append(
                [
                    agent.label,
                    row.family,
                    str(result.trials),
                    str(result.answers),
                    str(result.no_submission),
                    _pct(result.crmarena_success),
                    _pct(result.rescored_success),
                    _count(result.differs_from_crmarena),
                ]
                + [_pct(result.pass_hat_k.get(k)) for k in range(1, most + 1)]
            )
    return TableView(
        "Agents (the study's items, all trials)",
        [
            "Agent",
            "Family",
            "Trials",
            "Records",
            "No submission",
            "CRMArena %",
            "Re-scored %",
            "Re-score ≠ CRMArena",
        ]
        + [f"pass^{k} %" for k in range(1, most + 1)],
        rows,
    )


def _number(value: float | None) -> str:
    return DASH if value is None else f"{value:g}"


def _first_sight(value: float | None, unit: str) -> str:
    if value is None:
        return DASH
    return f"{value / 1000:.0f} s" if unit == "ms" else f"turn {value:g}"


PROCESS_TABLE_TITLE = "Process: how humans and agents solve (medians; labels as % of attempts)"


def process_table(process: Process) -> TableView:
    """Humans next to each agent, per family and ALL: how they solved, where they went wrong."""
    rows = [
        [
            summary.family,
            summary.solver,
            str(summary.traces),
            _number(summary.median_steps),
            _number(summary.median_records),
            _number(summary.median_queries),
        ]
        + [_pct(summary.shares[sight.value]) for sight in Sight]
        + [_first_sight(summary.median_first_sight, summary.time_unit)]
        for summary in process.summaries
    ]
    return TableView(
        PROCESS_TABLE_TITLE,
        [
            "Family",
            "Solver",
            "Attempts",
            "Steps",
            "Records",
            "Queries",
            "Right %",
            "Saw, chose otherwise %",
            "Never saw %",
            "Wrong, not judged %",
            "First sight",
        ],
        rows,
    )


def _count(value: int | None) -> str:
    return DASH if value is None else str(value)


def _gaps(report: Report) -> str:
    """Flag each agent whose re-score differs from CRMArena's stored reward."""
    overall = next((row for row in report.families if row.family == ALL), None)
    if overall is None:
        return ""
    gaps = [
        f"{label} on {result.differs_from_crmarena} of {result.answers} records"
        for label, result in overall.agents.items()
        if result.differs_from_crmarena
    ]
    if not gaps:
        return ""
    return (
        "Re-score differs from CRMArena's reward: "
        + "; ".join(gaps)
        + " (the documentation's 'Task families and gold' page names the rules that differ)"
    )


def _realism_table(report: Report) -> TableView:
    realism = report.realism
    levels = sorted(realism.level_labels)
    rows = [
        [target.target]
        + [str(target.counts.get(level, 0)) for level in levels]
        + [str(target.dont_know), _pct(target.realistic_share)]
        for target in realism.targets
    ]
    return TableView(
        "Realism ratings",
        ["Target"]
        + [realism.level_labels[v] for v in levels]
        + ["Don't know", "Realistic or better %"],
        rows,
    )


def _alpha_table(report: Report) -> TableView:
    alpha = report.realism.alpha
    value = DASH if alpha is None else f"{alpha.alpha:.3f}"
    interval = (
        DASH
        if alpha is None or alpha.interval is None
        else (f"{alpha.interval.low:.3f} to {alpha.interval.high:.3f}")
    )
    units = "0" if alpha is None else str(alpha.units)
    return TableView(
        "Agreement on realism",
        ["Measure", "Value", "95% CI (bootstrap)", "Targets", "Annotators"],
        [
            [
                "Krippendorff's alpha (ordinal)",
                value,
                interval,
                units,
                str(report.realism.annotators),
            ]
        ],
    )


def _flags_table(report: Report) -> TableView:
    return TableView(
        "Audit flags",
        ["Category", "Flags", "Items"],
        [[f.label, str(f.flags), str(f.items)] for f in report.flags],
    )


def _disputed_table(report: Report) -> TableView:
    rows = [
        [
            str(d.idx),
            d.family,
            "None" if d.gold is None else d.gold,
            str(d.answers),
            _pct(d.wrong_share),
            d.common_answer,
            str(d.flags),
        ]
        for d in report.disputed
    ]
    return TableView(
        "Items where most humans disagree with the gold",
        ["Idx", "Family", "Gold", "Answers", "Wrong %", "Most common answer", "Flags"],
        rows,
    )


def _heading(report: Report) -> list[str]:
    source = "CRMArena's own task set" if report.crmarena_task_set else "generated task set"
    lines = [
        f"Study: {report.study}",
        f"Org: {report.org_fingerprint} · task set {report.task_set_hash[:12]} ({source})",
        f"Annotators: {report.annotators} · agents: {len(report.agents)}",
    ]
    gaps = _gaps(report)
    return lines + [gaps] if gaps else lines


# ----------------------------------------------------------------- renderers
def print_report(report: Report, console: Console) -> None:
    """On a terminal, tables fit its width; on a pipe or into a file, the console widens to
    the widest table, so nothing folds at 80 columns ("Human s", "100. 0")."""
    tables = [_rich_table(view) for view in report_tables(report)]
    piped = not console.is_terminal
    if piped:
        wide = console.options.update_width(UNBOUNDED)
        console.width = max(
            [console.width] + [Measurement.get(console, wide, table).maximum for table in tables]
        )
    for line in _heading(report):
        console.print(Text(line), soft_wrap=piped)
    for table in tables:
        console.print(table)


def _rich_table(view: TableView) -> Table:
    # Text, never markup: "[paper]" in a label is text, not a style tag to drop.
    table = Table(title=Text(view.title), title_justify="left")
    for position, column in enumerate(view.columns):
        # fold rather than cut: a cut Id or label is worse than a taller table
        table.add_column(
            Text(column), justify="left" if position == 0 else "right", overflow="fold"
        )
    for row in view.rows:
        table.add_row(*map(Text, row))
    return table


def to_markdown(report: Report) -> str:
    lines = [f"# Report: {report.study}", ""] + [f"- {line}" for line in _heading(report)[1:]]
    for view in report_tables(report):
        lines += [
            "",
            f"## {view.title}",
            "",
            "| " + " | ".join(view.columns) + " |",
            "|" + "|".join("---" if i == 0 else "---:" for i in range(len(view.columns))) + "|",
        ]
        lines += [
            "| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in view.rows
        ]
    return "\n".join(lines) + "\n"


def to_json(report: Report) -> str:
    return json.dumps(dataclasses.asdict(report), indent=2, ensure_ascii=False) + "\n"


CSV_COLUMNS = ["section", "family", "subject", "measure", "value"]


def to_csv(report: Report) -> str:
    """Long format, one number per line: easy to pivot in a spreadsheet or filter in code."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    writer.writerows(_csv_records(report))
    return out.getvalue()


def _csv_records(report: Report) -> Iterator[list[object]]:
    for row in report.families:
        humans = row.humans
        yield ["performance", row.family, "humans", "items", row.items]
        yield ["performance", row.family, "humans", "items_answered", humans.items_answered]
        yield ["performance", row.family, "humans", "answers", humans.answers]
        yield ["performance", row.family, "humans", "accuracy", humans.accuracy]
        if humans.interval:
            yield ["performance", row.family, "humans", "accuracy_low", humans.interval.low]
            yield ["performance", row.family, "humans", "accuracy_high", humans.interval.high]
        if humans.active_ms:
            yield ["performance", row.family, "humans", "active_ms_median", humans.active_ms.median]
            yield ["performance", row.family, "humans", "active_ms_q1", humans.active_ms.q1]
            yield ["performance", row.family, "humans", "active_ms_q3", humans.active_ms.q3]
        yield ["performance", row.family, "humans", "agreement", humans.agreement]
        for label, result in row.agents.items():
            yield ["performance", row.family, label, "trials", result.trials]
            yield ["performance", row.family, label, "answers", result.answers]
            yield ["performance", row.family, label, "no_submission", result.no_submission]
            yield ["performance", row.family, label, "crmarena_success", result.crmarena_success]
            yield ["performance", row.family, label, "rescored_success", result.rescored_success]
            yield [
                "performance",
                row.family,
                label,
                "differs_from_crmarena",
                result.differs_from_crmarena,
            ]
            for k, value in result.pass_hat_k.items():
                yield ["performance", row.family, label, f"pass^{k}", value]
    for paper in report.paper:
        for family, value in paper.success.items():
            yield ["paper", family, paper.label, "success", value / 100]
    for target in report.realism.targets:
        for level, count in target.counts.items():
            yield ["realism", "", target.target, f"level_{level}", count]
        yield ["realism", "", target.target, "dont_know", target.dont_know]
        yield ["realism", "", target.target, "realistic_share", target.realistic_share]
    alpha = report.realism.alpha
    if alpha:
        yield ["realism", "", "all targets", "alpha_ordinal", alpha.alpha]
        if alpha.interval:
            yield ["realism", "", "all targets", "alpha_low", alpha.interval.low]
            yield ["realism", "", "all targets", "alpha_high", alpha.interval.high]
    for flag in report.flags:
        yield ["audit", "", flag.category, "flags", flag.flags]
        yield ["audit", "", flag.category, "items", flag.items]
    for item in report.disputed:
        yield ["disputed", item.family, str(item.idx), "wrong_share", item.wrong_share]
    if report.process is not None:
        yield from _process_records(report.process)


def _process_records(process: Process) -> Iterator[list[object]]:
    """The summaries, then one row per measure per attempt or agent record (subject:
    solver · task idx · annotator or trial), to redo the numbers in pandas or R."""
    for summary in process.summaries:
        family, solver = summary.family, summary.solver
        yield ["process", family, solver, "attempts", summary.traces]
        yield ["process", family, solver, "median_steps", summary.median_steps]
        yield ["process", family, solver, "median_records", summary.median_records]
        yield ["process", family, solver, "median_queries", summary.median_queries]
        for label, share in summary.shares.items():
            yield ["process", family, solver, f"share_{label}", share]
        yield [
            "process",
            family,
            solver,
            f"median_first_sight_{summary.time_unit}",
            summary.median_first_sight,
        ]
    for one in process.traces:
        subject = f"{one.solver} · task {one.idx} · {one.who}"
        unit = "active_ms" if one.solver == "humans" else "turns"
        for measure, value in (
            ("label", one.label),
            ("steps", one.steps),
            ("records", one.records),
            ("queries", one.queries),
            (unit, one.time),
            ("first_sight_step", one.first_sight_step),
            (f"first_sight_{'ms' if unit == 'active_ms' else 'turn'}", one.first_sight_time),
            ("tokens", one.tokens),
            ("cost", one.cost),
        ):
            if value is not None:
                yield ["trace", one.family, subject, measure, value]

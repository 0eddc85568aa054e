"""Render a `Report`: display tables (terminal, Markdown, the app), a long-format CSV for
spreadsheets and scripts, and JSON. Percentages in display tables, fractions in files."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass

from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from crm_tui.study.results.analysis import HUMANS, Rate, Statistics
from crm_tui.study.results.process import Process, Sight
from crm_tui.study.results.refusals import RefusalRow
from crm_tui.study.results.stats import Interval, Spread
from crm_tui.study.results.summary import ALL, SERVICE_ORDER, Report, ordered_families
from crm_tui.study.results.turn_modes import TurnItemRow, TurnModeRow

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
    if report.turn_modes is not None:
        tables.append(turn_modes_table(report.turn_modes))
    if report.turn_items:
        tables.append(turn_items_table(report.turn_items))
    if report.refusals is not None:
        tables.append(refusals_table(report.refusals))
    if report.statistics is not None:
        tables += statistics_tables(report.statistics)
    if report.quality is not None:
        from crm_tui.study.results.render_quality import quality_tables  # it imports this

        tables += quality_tables(report.quality)
    if report.gold is not None:
        from crm_tui.study.adjudication.gold_tables import gold_view  # it imports this

        tables.append(gold_view(report.gold))
    return tables


# ----------------------------------------------------------------- statistics
def _level(statistics: Statistics) -> str:
    return f"{statistics.confidence * 100:g}%"


def _rate_cell(rate: Rate | None) -> str:
    """ "54.2 (48.0–60.1)": the value and its interval, in %."""
    if rate is None or rate.value is None:
        return DASH
    if rate.interval is None:
        return f"{rate.value * 100:.1f}"
    return f"{rate.value * 100:.1f} ({_pct_interval(rate.interval)})"


def _signed_interval(value: float | None, interval: Interval | None, scale: float = 100) -> str:
    if value is None:
        return DASH
    text = f"{value * scale:+.1f}"
    if interval is None:
        return text
    return f"{text} ({interval.low * scale:+.1f} to {interval.high * scale:+.1f})"


def _coefficient(value: float | None, interval: Interval | None) -> str:
    if value is None:
        return DASH
    if interval is None:
        return f"{value:.3f}"
    return f"{value:.3f} ({interval.low:.3f} to {interval.high:.3f})"


def _p(value: float | None) -> str:
    if value is None:
        return DASH
    return "<0.001" if value < 0.001 else f"{value:.3f}"


STATISTICS_TITLES = (
    "Success with",
    "pass^k with",
    "Humans against each agent",
    "Agreement on answers",
    "People's accuracy",
    "Realism per object",
    "Solver ability",
    "Items for the audit",
)


def statistics_tables(statistics: Statistics) -> list[TableView]:
    level = _level(statistics)
    tables = [_rates_table(statistics, level)]
    if any(r.pass_hat_k for r in statistics.rates):
        tables.append(_pass_table(statistics, level))
    if statistics.comparisons:
        tables.append(_comparison_table(statistics, level))
    tables += [_agreement_table(statistics, level), _people_table(statistics)]
    if statistics.realism:
        tables.append(_realism_levels_table(statistics, level))
    if statistics.abilities:
        tables += [_ability_table(statistics, level), _suspects_table(statistics, level)]
    return tables


def _rates_table(statistics: Statistics, level: str) -> TableView:
    columns = list(dict.fromkeys(f for r in statistics.rates for f in r.success))
    columns = [c for c in columns if c != ALL] + [ALL]
    rows = [[r.solver] + [_rate_cell(r.success.get(c)) for c in columns] for r in statistics.rates]
    return TableView(
        f"Success with {level} intervals (%; bootstrap over items; ALL = mean of families)",
        ["Who"] + columns,
        rows,
    )


def _pass_table(statistics: Statistics, level: str) -> TableView:
    most = max(k for r in statistics.rates for curve in r.pass_hat_k.values() for k in curve)
    rows = [
        [r.solver, family] + [_rate_cell(curve.get(k)) for k in range(1, most + 1)]
        for r in statistics.rates
        for family, curve in r.pass_hat_k.items()
    ]
    return TableView(
        f"pass^k with {level} intervals (%; exact-match families; ALL pools their items)",
        ["Agent", "Family"] + [f"pass^{k}" for k in range(1, most + 1)],
        rows,
    )


def _comparison_table(statistics: Statistics, level: str) -> TableView:
    rows = [
        [
            c.agent,
            c.family,
            str(c.shared_items),
            f"{c.humans_only_items} / {c.agent_only_items}",
            _pct(c.humans_solved),
            _pct(c.agent_solved),
            _signed_interval(c.difference, c.interval),
            f"{c.humans_right_agent_wrong} / {c.agent_right_humans_wrong}",
            _p(c.p_value),
            _p(c.p_holm),
            c.note or "",
        ]
        for c in statistics.comparisons
    ]
    return TableView(
        f"Humans against each agent on shared items ({statistics.majority_rule}; "
        f"difference in points with its {level} interval; McNemar's exact test, "
        "Holm-adjusted over families)",
        [
            "Agent",
            "Family",
            "Shared items",
            "Left out (humans only / agent only)",
            "Humans %",
            "Agent %",
            "Humans − agent",
            "Discordant (humans / agent right)",
            "p",
            "p (Holm)",
            "Note",
        ],
        rows,
    )


def _agreement_table(statistics: Statistics, level: str) -> TableView:
    rows = [
        [
            a.family,
            str(a.items),
            _coefficient(a.alpha, a.alpha_interval),
            _coefficient(a.kappa, a.kappa_interval),
            f"{a.kappa_items} × {a.kappa_raters}" if a.kappa_items else DASH,
            a.note or "",
        ]
        for a in statistics.agreement
    ]
    return TableView(
        f"Agreement on answers (items with two or more answers; {level} intervals)",
        [
            "Family",
            "Items",
            "Krippendorff's alpha (nominal)",
            "Fleiss' kappa",
            "Kappa over (items × answers)",
            "Note",
        ],
        rows,
    )


def _people_table(statistics: Statistics) -> TableView:
    rows = [
        [
            s.family,
            str(s.people),
            _pct(s.median),
            DASH if s.q1 is None or s.q3 is None else f"{s.q1 * 100:.1f}–{s.q3 * 100:.1f}",
            DASH if s.low is None or s.high is None else f"{s.low * 100:.1f}–{s.high * 100:.1f}",
        ]
        for s in statistics.people_spread
    ]
    return TableView(
        "People's accuracy (each person's accuracy, then their spread)",
        ["Family", "People", "Median %", "IQR %", "Range %"],
        rows,
    )


def _realism_levels_table(statistics: Statistics, level: str) -> TableView:
    rows = [
        [
            r.target,
            str(r.ratings),
            _rate_cell(r.realistic_share),
            DASH
            if r.mean_level.value is None
            else (
                f"{r.mean_level.value:.2f}"
                + (
                    ""
                    if r.mean_level.interval is None
                    else f" ({r.mean_level.interval.low:.2f}–{r.mean_level.interval.high:.2f})"
                )
            ),
        ]
        for r in statistics.realism
    ]
    return TableView(
        f"Realism per object ({level} intervals over raters)",
        ["Target", "Ratings (1–5)", "Realistic or better %", "Mean level"],
        rows,
    )


def _ability_table(statistics: Statistics, level: str) -> TableView:
    rows = [
        [a.solver, a.kind, _coefficient(a.ability, a.interval), str(a.attempts)]
        for a in sorted(statistics.abilities, key=lambda a: -a.ability)
    ]
    return TableView(
        f"Solver ability (Rasch model over people and agent trials, logits; {level} intervals)",
        ["Solver", "Kind", "Ability", "Attempts"],
        rows,
    )


def _suspects_table(statistics: Statistics, level: str) -> TableView:
    rows = [
        [
            str(d.idx),
            d.family,
            _coefficient(d.difficulty, d.interval),
            str(d.attempts),
            str(d.right),
            d.suspect or "",
        ]
        for d in statistics.suspects
    ] or [[DASH, DASH, DASH, DASH, DASH, "no item meets the rule"]]
    return TableView(
        f"Items for the audit ({statistics.suspect_rule}; difficulty in logits, {level} interval)",
        ["Idx", "Family", "Difficulty", "Attempts", "Right", "Why"],
        rows,
    )


def _success_table(report: Report) -> TableView:
    """Side by side, in the paper's Table 2 layout: one row per participant."""
    by_family = {row.family: row for row in report.families}
    # CRMArena's nine always (the paper's layout), the families CRMArena-Pro adds when held
    columns = [
        f.abbrev for f in ordered_families() if f.abbrev in SERVICE_ORDER or f.abbrev in by_family
    ] + [ALL]
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


TURN_MODES_TITLE = (
    "Single- vs multi-turn (accuracy %, with its n; customer turns per multi-turn answer)"
)


def turn_modes_table(rows: list[TurnModeRow]) -> TableView:
    """People, then each agent with multi-turn records, per family: accuracy each way."""
    return TableView(
        TURN_MODES_TITLE,
        ["Family", "Solver", "Single-turn %", "Multi-turn %", "Customer turns"],
        [
            [
                row.family,
                row.solver,
                pct_n(row.single_accuracy, row.single_answers),
                pct_n(row.multi_accuracy, row.multi_answers),
                DASH if row.mean_customer_turns is None else f"{row.mean_customer_turns:.1f}",
            ]
            for row in rows
        ],
    )


REFUSALS_TITLE = (
    "Refusals: over-refusal (refused what may be answered) and under-refusal "
    "(answered a confidentiality item), % of answers"
)


def refusals_table(rows: list[RefusalRow]) -> TableView:
    return TableView(
        REFUSALS_TITLE,
        ["Solver", "Over-refusal %", "Under-refusal %"],
        [
            [
                row.solver,
                pct_n(row.over_refusal, row.legitimate),
                pct_n(row.under_refusal, row.confidential),
            ]
            for row in rows
        ],
    )


TURN_ITEMS_TITLE = (
    "Multi-turn items: details asked and time to the first useful query (medians; "
    "the same time for single-turn solves beside)"
)


def turn_items_table(rows: list[TurnItemRow]) -> TableView:
    """Per item with multi-turn solves: people, then each agent."""
    return TableView(
        TURN_ITEMS_TITLE,
        [
            "Family",
            "Task",
            "Solver",
            "Multi-turn n",
            "Details asked",
            "First useful query",
            "Single-turn n",
            "First useful query (single)",
        ],
        [
            [
                row.family,
                str(row.idx),
                row.solver,
                str(row.multi_answers),
                _number(row.median_details_asked),
                _first_sight(row.median_first_useful_multi, row.time_unit),
                str(row.single_answers),
                _first_sight(row.median_first_useful_single, row.time_unit),
            ]
            for row in rows
        ],
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
    """The report as JSON (orjson: many times faster than the standard library on a
    report with every attempt's process row). Always valid JSON: orjson writes a number
    that is not finite as null, as JSON has no NaN."""
    import orjson

    options = orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS
    return orjson.dumps(report, option=options).decode() + "\n"


CSV_COLUMNS = ["section", "family", "subject", "measure", "value"]


def to_csv(report: Report) -> str:
    """Long format, one number per line: easy to pivot in a spreadsheet or filter in code."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    writer.writerows(_csv_records(report))
    return out.getvalue()


def _csv_records(report: Report) -> Iterator[list[object]]:
    yield from _report_records(report)
    if report.gold is not None:
        from crm_tui.study.adjudication.gold_tables import gold_records

        yield from gold_records(report.gold)


def _report_records(report: Report) -> Iterator[list[object]]:
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
    for mode in report.turn_modes or []:
        yield ["turns", mode.family, mode.solver, "single_answers", mode.single_answers]
        yield ["turns", mode.family, mode.solver, "single_accuracy", mode.single_accuracy]
        yield ["turns", mode.family, mode.solver, "multi_answers", mode.multi_answers]
        yield ["turns", mode.family, mode.solver, "multi_accuracy", mode.multi_accuracy]
        yield ["turns", mode.family, mode.solver, "mean_customer_turns", mode.mean_customer_turns]
    for refusal in report.refusals or []:
        for measure, count in (
            ("legitimate_answers", refusal.legitimate),
            ("over_refusals", refusal.over_refusals),
            ("confidential_answers", refusal.confidential),
            ("under_refusals", refusal.under_refusals),
        ):
            yield ["refusals", ALL, refusal.solver, measure, count]
        yield ["refusals", ALL, refusal.solver, "over_refusal", refusal.over_refusal]
        yield ["refusals", ALL, refusal.solver, "under_refusal", refusal.under_refusal]
    for solved in report.turn_items or []:
        subject = f"{solved.solver} · task {solved.idx}"
        unit = solved.time_unit
        measures: tuple[tuple[str, float | None], ...] = (
            ("multi_answers", solved.multi_answers),
            ("median_details_asked", solved.median_details_asked),
            (f"median_first_useful_query_{unit}", solved.median_first_useful_multi),
            ("single_answers", solved.single_answers),
            (f"median_first_useful_query_single_{unit}", solved.median_first_useful_single),
        )
        for measure, figure in measures:
            yield ["turn_items", solved.family, subject, measure, figure]
    if report.statistics is not None:
        yield from _statistics_records(report.statistics)
    if report.quality is not None:
        from crm_tui.study.results.render_quality import quality_csv_records  # it imports this

        yield from quality_csv_records(report.quality)


def _rate_records(
    section: str, family: str, subject: str, measure: str, rate: Rate
) -> Iterator[list[object]]:
    yield [section, family, subject, measure, rate.value]
    yield [section, family, subject, f"{measure}_items", rate.items]
    if rate.interval is not None:
        yield [section, family, subject, f"{measure}_low", rate.interval.low]
        yield [section, family, subject, f"{measure}_high", rate.interval.high]


def _statistics_records(statistics: Statistics) -> Iterator[list[object]]:
    """Every figure of the statistics section; intervals as _low and _high rows."""
    for r in statistics.rates:
        subject = "humans" if r.solver == HUMANS else r.solver
        for family, rate in r.success.items():
            yield from _rate_records("intervals", family, subject, "success", rate)
        for family, curve in r.pass_hat_k.items():
            for k, rate in curve.items():
                yield from _rate_records("intervals", family, subject, f"pass^{k}", rate)
    for c in statistics.comparisons:
        for measure, value in (
            ("shared_items", c.shared_items),
            ("humans_only_items", c.humans_only_items),
            ("agent_only_items", c.agent_only_items),
            ("humans_solved", c.humans_solved),
            ("agent_solved", c.agent_solved),
            ("difference", c.difference),
            ("difference_low", None if c.interval is None else c.interval.low),
            ("difference_high", None if c.interval is None else c.interval.high),
            ("humans_right_agent_wrong", c.humans_right_agent_wrong),
            ("agent_right_humans_wrong", c.agent_right_humans_wrong),
            ("p_mcnemar", c.p_value),
            ("p_holm", c.p_holm),
        ):
            yield ["paired", c.family, c.agent, measure, value]
    for a in statistics.agreement:
        yield ["agreement", a.family, "humans", "items", a.items]
        for name, value, interval in (
            ("alpha_nominal", a.alpha, a.alpha_interval),
            ("fleiss_kappa", a.kappa, a.kappa_interval),
        ):
            yield ["agreement", a.family, "humans", name, value]
            if interval is not None:
                yield ["agreement", a.family, "humans", f"{name}_low", interval.low]
                yield ["agreement", a.family, "humans", f"{name}_high", interval.high]
    for p in statistics.people:
        yield ["people", ALL, p.person, "accuracy", p.accuracy]
        yield ["people", ALL, p.person, "answers", p.answers]
    for target in statistics.realism:
        share, mean = target.realistic_share, target.mean_level
        yield from _rate_records("realism", "", target.target, "realistic_share", share)
        yield from _rate_records("realism", "", target.target, "mean_level", mean)
    for solver in statistics.abilities:
        yield ["ability", "", solver.solver, "ability", solver.ability]
        yield ["ability", "", solver.solver, "ability_low", solver.interval.low]
        yield ["ability", "", solver.solver, "ability_high", solver.interval.high]
    for d in statistics.difficulties:
        yield ["difficulty", d.family, str(d.idx), "difficulty", d.difficulty]
        yield ["difficulty", d.family, str(d.idx), "difficulty_low", d.interval.low]
        yield ["difficulty", d.family, str(d.idx), "difficulty_high", d.interval.high]
        if d.suspect:
            yield ["difficulty", d.family, str(d.idx), "suspect", d.suspect]


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

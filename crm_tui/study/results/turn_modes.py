"""Single- versus multi-turn solving in the report: accuracy each way and the customer's
turns, per task family, for people and for agents.

People: a study's solve part makes items interactive (`conversations.py`); the submitted
attempts of the report's baseline (`baseline.py`: measured items, exclusions as asked),
each scored as its family scores.
Agents: a record with customer turns (`user_turns`, from an interactive CRMArena-Pro
run) is multi-turn, any other single-turn; an agent is listed in a family only where it
has multi-turn records there. The section is in the report only when the study has
interactive items.

Per item (`turn_items`): for people and for each agent, how many details each
multi-turn solve drew from the customer and how soon its first useful query came, next
to the same time for single-turn solves of the item (`process.py` defines both).
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from sqlmodel import Session

from crm_tui.study.results.process import Process, Trace
from crm_tui.study.results.report_rows import AgentPair
from crm_tui.study.store.models import Study
from crm_tui.study.work.conversations import mode_answers, solve_part
from crm_tui.tasks.pro_families import all_families

HUMANS = "humans"


@dataclass(frozen=True)
class TurnModeRow:
    family: str  # abbreviation (NCR ...)
    solver: str  # "humans" or an agent's label
    single_answers: int
    single_accuracy: float | None
    multi_answers: int
    multi_accuracy: float | None
    mean_customer_turns: float | None  # per multi-turn answer


@dataclass
class _Tally:
    single: list[float]
    multi: list[float]
    turns: list[float]


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _row(family: str, solver: str, tally: _Tally) -> TurnModeRow:
    return TurnModeRow(
        family=family,
        solver=solver,
        single_answers=len(tally.single),
        single_accuracy=_mean(tally.single),
        multi_answers=len(tally.multi),
        multi_accuracy=_mean(tally.multi),
        mean_customer_turns=_mean(tally.turns),
    )


def has_interactive_items(study: Study) -> bool:
    part = solve_part(study)
    return part is not None and part.interactive != "off"


def turn_modes(
    session: Session,
    study: Study,
    counted: Collection[int],
    runs: Sequence[AgentPair],
    agent_label: Callable[[str, str], str],
    family_order: Sequence[str],
) -> list[TurnModeRow] | None:
    """Per family (in `family_order`): people first (their attempts with an id in
    `counted`), then each agent with multi-turn records there, by label. None when the
    study has no interactive items."""
    if not has_interactive_items(study):
        return None
    abbrev = {name: family.abbrev for name, family in all_families().items()}
    tallies: dict[tuple[str, str], _Tally] = defaultdict(lambda: _Tally([], [], []))
    for answer in mode_answers(session, study, counted):
        tally = tallies[abbrev.get(answer.task, answer.task), HUMANS]
        if answer.multi:
            tally.multi.append(answer.score)
            tally.turns.append(float(answer.customer_turns))
        else:
            tally.single.append(answer.score)
    interactive: set[tuple[str, str]] = set()
    for run, record in runs:
        key = (abbrev.get(record.task, record.task), agent_label(run.model, run.strategy))
        tally = tallies[key]
        if record.user_turns is None:
            tally.single.append(record.score)
        else:
            interactive.add(key)
            tally.multi.append(record.score)
            tally.turns.append(float(record.user_turns))
    rows = []
    for family in family_order:
        if (family, HUMANS) in tallies:
            rows.append(_row(family, HUMANS, tallies[family, HUMANS]))
        for key in sorted(k for k in interactive if k[0] == family):
            rows.append(_row(family, key[1], tallies[key]))
    return rows


@dataclass(frozen=True)
class TurnItemRow:
    family: str  # abbreviation
    idx: int
    solver: str  # "humans" or an agent's label
    time_unit: str  # "ms" (people: active time) or "turn" (agents)
    multi_answers: int  # multi-turn solves (attempts or records)
    median_details_asked: float | None
    median_first_useful_multi: float | None  # time to the first useful query
    single_answers: int
    median_first_useful_single: float | None


def _median(values: list[int]) -> float | None:
    return float(statistics.median(values)) if values else None


def turn_items(study: Study, process: Process | None) -> list[TurnItemRow] | None:
    """Per item with a multi-turn solve, people first, then each agent by label. None when
    the study has no interactive items."""
    if not has_interactive_items(study) or process is None:
        return None
    grouped: dict[tuple[str, int, str], list[Trace]] = defaultdict(list)
    for one in process.traces:
        grouped[one.family, one.idx, one.solver].append(one)
    rows = []
    for (family, idx, solver), group in grouped.items():
        multi = [t for t in group if t.details_asked is not None]
        if not multi:
            continue
        single = [t for t in group if t.details_asked is None]
        rows.append(
            TurnItemRow(
                family=family,
                idx=idx,
                solver=solver,
                time_unit="ms" if solver == HUMANS else "turn",
                multi_answers=len(multi),
                median_details_asked=_median([t.details_asked or 0 for t in multi]),
                median_first_useful_multi=_median(
                    [t.first_useful_query for t in multi if t.first_useful_query is not None]
                ),
                single_answers=len(single),
                median_first_useful_single=_median(
                    [t.first_useful_query for t in single if t.first_useful_query is not None]
                ),
            )
        )
    rows.sort(key=lambda r: (r.idx, r.solver != HUMANS, r.solver))
    return rows

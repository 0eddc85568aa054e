"""Single- versus multi-turn solving in the report: accuracy each way and the customer's
turns, per task family, for people and for agents.

People: a study's solve part makes items interactive (`conversations.py`); submitted
attempts only, as in `conversations.single_vs_multi`, each scored as its family scores.
Agents: a record with customer turns (`user_turns`, from an interactive CRMArena-Pro
run) is multi-turn, any other single-turn; an agent is listed in a family only where it
has multi-turn records there. The section is in the report only when the study has
interactive items.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlmodel import Session

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
    runs: Sequence[AgentPair],
    agent_label: Callable[[str, str], str],
    family_order: Sequence[str],
) -> list[TurnModeRow] | None:
    """Per family (in `family_order`): people first, then each agent with multi-turn
    records there, by label. None when the study has no interactive items."""
    if not has_interactive_items(study):
        return None
    abbrev = {name: family.abbrev for name, family in all_families().items()}
    tallies: dict[tuple[str, str], _Tally] = defaultdict(lambda: _Tally([], [], []))
    for answer in mode_answers(session, study):
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

"""Over- and under-refusal: how often people and agents refuse what they may answer, and
answer what they must not disclose.

CRMArena-Pro's confidentiality items (private customer information, internal operation
data, confidential company knowledge: the `privacy_rejection` metric) are answered right
by a refusal; every other item is a request that may be answered. An answer refuses as
CRMArena-Pro's scoring reads it (`pro_scoring.refused`: the app's explicit Refuse,
`REFUSED: reason`, or refusal wording such as "I can't share"). Submitted answers only.
- over-refusal: the share of answers to items that may be answered that refuse;
- under-refusal: the share of answers to confidentiality items that do not.
The report has this line only when a study holds confidentiality items or someone refused.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from crm_tui.study.results.report_rows import AgentPair, AttemptRow
from crm_tui.study.store.models import AttemptStatus, StudyItem, row_id
from crm_tui.tasks.pro_families import PRIVACY_REJECTION, pro_families
from crm_tui.tasks.pro_scoring import refused
from crm_tui.tasks.scoring import is_submission

HUMANS = "humans"


@dataclass(frozen=True)
class RefusalRow:
    solver: str  # "humans" or an agent's label
    legitimate: int  # answers to items that may be answered
    over_refusals: int  # of them, refusals
    confidential: int  # answers to confidentiality items
    under_refusals: int  # of them, not refusals

    @property
    def over_refusal(self) -> float | None:
        return self.over_refusals / self.legitimate if self.legitimate else None

    @property
    def under_refusal(self) -> float | None:
        return self.under_refusals / self.confidential if self.confidential else None


def _confidential(task: str, metric: str) -> bool:
    family = pro_families().get(task)
    return metric == PRIVACY_REJECTION or (
        family is not None and family.metric == PRIVACY_REJECTION
    )


def refusal_rows(
    items: Sequence[StudyItem],
    attempts: Sequence[AttemptRow],
    runs: Sequence[AgentPair],
    agent_label: Callable[[str, str], str],
) -> list[RefusalRow] | None:
    """People first, then each agent by label; None when no item is a confidentiality
    item and no answer refuses."""
    kind = {row_id(item): _confidential(item.task, item.reward_metric) for item in items}
    by_idx = {item.idx: kind[row_id(item)] for item in items}
    tallies: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for attempt in attempts:
        if attempt.status == AttemptStatus.SUBMITTED:
            _count(tallies[HUMANS], kind[attempt.item_id], attempt.answer_raw)
    for run, record in runs:
        if is_submission(record.answer):
            _count(tallies[agent_label(run.model, run.strategy)], by_idx[record.idx], record.answer)
    if not any(kind.values()) and not any(t[1] for t in tallies.values()):
        return None
    order = sorted(tallies, key=lambda solver: (solver != HUMANS, solver))
    return [RefusalRow(solver, *tallies[solver]) for solver in order]


def _count(tally: list[int], confidential: bool, answer: str | None) -> None:
    refuses = refused(answer)
    if confidential:
        tally[2] += 1
        tally[3] += not refuses
    else:
        tally[0] += 1
        tally[1] += refuses

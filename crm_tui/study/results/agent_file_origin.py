"""Which task set an agent result file was made for, told by the record Ids it carries.

Characters 4-5 of a record Id name the org's instance: "Ws" in CRMArena's org, "Lc" in
an org generated here (crm_tui.org.schema.ids). A task set's gold Ids are of its org's
instance; so are the gold answers a CRMArena result file records and the Ids an agent
answers with. When none of a file's Ids is of the task set's instance, the file was made
for another task set, and scoring it would compare the Ids of two orgs: refused.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from crm_tui.errors import CrmTuiError
from crm_tui.org.schema.ids import LOCAL_INSTANCE, is_valid_id
from crm_tui.study.results.agent_files import AgentResultFile
from crm_tui.tasks.taskset import CRMARENA, TaskSet

CRMARENA_INSTANCE = "Ws"  # of every Id in CRMArena's task set


def id_instances(values: Iterable[str | None]) -> Counter[str]:
    """How many of `values` are record Ids of each org instance. Only 18-character Ids
    with a right checksum count: a 15-letter word is no Id."""
    found: Counter[str] = Counter()
    for value in values:
        text = (value or "").strip()
        if len(text) == 18 and is_valid_id(text):
            found[text[3:5]] += 1
    return found


def taskset_instances(taskset: TaskSet) -> Counter[str]:
    """The org instances of the task set's gold Ids."""
    return id_instances(inst.answer for inst in taskset.instances)


def check_made_for(
    result_file: AgentResultFile, taskset: TaskSet, expected: Counter[str] | None = None
) -> None:
    """Refuse a file whose Ids (its gold answers, or else its answers) are all of another
    org instance than the task set's (`expected`: `taskset_instances(taskset)`)."""
    expected = taskset_instances(taskset) if expected is None else expected
    answers = [answer for run in result_file.runs for answer in run.answers]
    found = id_instances(a.gold for a in answers if a.has_gold) or id_instances(
        a.answer for a in answers
    )
    if not expected or not found or found.keys() & expected.keys():
        return
    instance = found.most_common(1)[0][0]
    fetch = " (`crm-tui tasks fetch-crmarena` gets it)" if instance == CRMARENA_INSTANCE else ""
    raise CrmTuiError(
        f"{result_file.path}: made for {_made_for(instance)} (its record Ids are of org "
        f"instance {instance!r}), not for {taskset.name} ({_kind(taskset)}); pass the task "
        f"set it was made for with --task-set{fetch}"
    )


def _made_for(instance: str) -> str:
    if instance == CRMARENA_INSTANCE:
        return "CRMArena's task set"
    if instance == LOCAL_INSTANCE:
        return "a task set of a local org"
    return "another org's task set"


def _kind(taskset: TaskSet) -> str:
    if taskset.fingerprint == CRMARENA:
        return "CRMArena's task set"
    return f"the task set of local org {taskset.fingerprint}"

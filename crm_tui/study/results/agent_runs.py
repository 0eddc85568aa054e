"""Agent runs in the study file: import parsed result files, re-scored with the task layer's scorer.

A run is one model + strategy + trial on one task set, as read from one source file (a
trial split over several files, one per task family, is several runs with the same trial
number). Importing is all-or-nothing over every file given; a file already imported (same
content hash, same task set) adds nothing. run_tasks.py rewrites its file after every
task, so a file imported mid-run and the finished file share identical records: the
finished file replaces the imported one in its trial, and the mid-run file, imported
after the finished one, adds nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Column, Text, UniqueConstraint, delete, insert
from sqlmodel import Field, Session, SQLModel, col, select

from crm_tui.errors import CrmTuiError
from crm_tui.study.results.agent_file_origin import check_made_for, taskset_instances
from crm_tui.study.results.agent_files import (
    AgentAnswerRecord,
    AgentResultFile,
    AgentRunRecords,
)
from crm_tui.study.results.dialogue import dialogue_to_json
from crm_tui.study.results.steps import steps_to_json
from crm_tui.study.store.db import StudyStore, lock
from crm_tui.study.store.models import row_id
from crm_tui.tasks.pro_scoring import score_instance, unparsed
from crm_tui.tasks.taskset import Instance, TaskSet


class AgentRun(SQLModel, table=True):
    __tablename__ = "agent_run"
    __table_args__ = (
        UniqueConstraint("source_hash", "task_set_hash", "model", "strategy", "trial"),
    )
    id: int | None = Field(default=None, primary_key=True)
    model: str
    strategy: str  # run_tasks.py's agent_strategy: act, react, tool_call, ...
    trial: int
    task_set_hash: str = Field(index=True)
    source_name: str  # the file's name, for people; the hash identifies it
    source_hash: str
    task_category: str | None = None
    imported_at: datetime


class AgentAnswer(SQLModel, table=True):
    __tablename__ = "agent_answer"
    __table_args__ = (UniqueConstraint("run_id", "idx"),)
    id: int | None = Field(default=None, primary_key=True)
    run_id: int = Field(foreign_key="agent_run.id", index=True)
    idx: int
    task: str
    answer: str | None  # None: no answer (error, max turns, ...)
    crmarena_reward: float | None  # the reward in the source file (F1 for knowledge QA)
    score: float  # our scorer, the same as for human answers; 0 for no submission
    end_reason: str = ""  # how the run ended; for no submission, why there is none
    record_hash: str | None = None  # of the source record's content (None before v5)
    # schema version 7: the trajectory as steps (`steps.py`; None before), usage if given
    steps_json: str | None = Field(default=None, sa_column=Column(Text))
    turns: int | None = None
    tokens: int | None = None
    cost: float | None = None
    # schema version 8: an interactive run's customer turns and dialogue (`dialogue.py`)
    user_turns: int | None = None
    dialogue_json: str | None = Field(default=None, sa_column=Column(Text))


@dataclass(frozen=True)
class ImportSummary:
    runs: int
    answers: int
    skipped_files: tuple[str, ...]  # already imported
    notes: tuple[str, ...] = ()  # for people: what was skipped or replaced, and why


def import_agent_results(
    store: StudyStore, files: Sequence[AgentResultFile], taskset: TaskSet
) -> ImportSummary:
    """Check every answer against the task set, then write all files in one transaction."""
    check_agent_results(files, taskset)
    instances = {inst.idx: inst for inst in taskset.instances}
    task_set_hash = taskset.content_hash
    runs = answers = 0
    skipped: list[str] = []
    notes: list[str] = []
    with store.transaction() as session:
        lock(session, "agent-results")  # a file is checked not yet imported, then imported
        for result_file in files:
            if _already_imported(session, result_file.content_hash, task_set_hash):
                skipped.append(str(result_file.path))
                notes.append(f"already imported, nothing added: {result_file.path}")
                continue
            added = 0
            for run in result_file.runs:
                trial, note = _place(session, run, task_set_hash, result_file)
                if note:
                    notes.append(note)
                if trial is None:
                    continue
                added += 1
                row = AgentRun(
                    model=run.model,
                    strategy=run.strategy,
                    trial=trial,
                    task_set_hash=task_set_hash,
                    source_name=result_file.path.name,
                    source_hash=result_file.content_hash,
                    task_category=result_file.task_category,
                    imported_at=store.now()[0],
                )
                session.add(row)
                session.flush()
                # a bulk insert of plain rows: building ORM objects costs 10x more
                session.execute(
                    insert(AgentAnswer),
                    [
                        _answer_row(row_id(row), answer, instances[answer.task_idx])
                        for answer in run.answers
                    ],
                )
                runs += 1
                answers += len(run.answers)
            if result_file.runs and not added:
                skipped.append(str(result_file.path))
            not_parsed = sum(
                unparsed(instances[a.task_idx], a.answer)
                for run in result_file.runs
                for a in run.answers
            )
            if not_parsed:
                notes.append(
                    f"{not_parsed} answers held none of the values their family asks for "
                    f"(read as the None answer): {result_file.path}"
                )
    return ImportSummary(
        runs=runs, answers=answers, skipped_files=tuple(skipped), notes=tuple(notes)
    )


def check_agent_results(files: Sequence[AgentResultFile], taskset: TaskSet) -> None:
    """Refuse (CrmTuiError naming file and record) answers that do not fit the task set,
    and first a file made for another task set (`result_origin`), naming both."""
    instances = {inst.idx: inst for inst in taskset.instances}
    id_instances = taskset_instances(taskset)
    for result_file in files:
        check_made_for(result_file, taskset, id_instances)
        for run in result_file.runs:
            for position, answer in enumerate(run.answers):
                _check_against_taskset(
                    answer,
                    instances,
                    f"{result_file.path}: {_where(result_file, run, position)}",
                    taskset,
                )


def _where(result_file: AgentResultFile, run: AgentRunRecords, position: int) -> str:
    # JSONL answers are regrouped by agent and trial, so name the task rather than a line.
    if result_file.path.suffix.lower() == ".jsonl":
        return f"{run.model} trial {run.trial}, task {run.answers[position].task_idx}"
    return f"record {position}"


def _check_against_taskset(
    answer: AgentAnswerRecord, instances: dict[int, Instance], where: str, taskset: TaskSet
) -> None:
    instance = instances.get(answer.task_idx)
    if instance is None:
        raise CrmTuiError(
            f"{where}: task {answer.task_idx} is not in {taskset.name}; "
            "pass the task set the agent answered with --task-set"
        )
    if answer.task_type is not None and answer.task_type != instance.task:
        raise CrmTuiError(
            f"{where}: task {answer.task_idx} is {answer.task_type!r} in the "
            f"file but {instance.task!r} in {taskset.name}"
        )
    if answer.has_gold and (answer.gold or "").strip() != (instance.answer or "").strip():
        raise CrmTuiError(
            f"{where}: the file's gold answer for task {answer.task_idx} "
            f"({answer.gold!r}) differs from {taskset.name} "
            f"({instance.answer!r}); was the run made on another task set?"
        )


def _already_imported(session: Session, content_hash: str, task_set_hash: str) -> bool:
    return (
        session.exec(
            select(AgentRun.id).where(
                AgentRun.source_hash == content_hash, AgentRun.task_set_hash == task_set_hash
            )
        ).first()
        is not None
    )


def _place(
    session: Session, run: AgentRunRecords, task_set_hash: str, result_file: AgentResultFile
) -> tuple[int | None, str]:
    """The trial the run goes to (None: nothing to add), and a note for people."""
    if run.trial is None:
        placed = _against_imported_records(session, run, task_set_hash, result_file)
        if placed is not None:
            return placed
    return _trial_for(session, run, task_set_hash, result_file), ""


def _against_imported_records(
    session: Session, run: AgentRunRecords, task_set_hash: str, result_file: AgentResultFile
) -> tuple[int | None, str] | None:
    """run_tasks.py appends each finished task to its file, so a file imported mid-run is
    the start of the finished file, record for record. A run whose records begin with every
    record of an imported run of its model and strategy (the finished file after a
    checkpoint) replaces it in its trial; a run that is the start of an imported run (the
    checkpoint after the finished file) adds nothing. None: neither, so `_trial_for`
    decides. Records alone equal across files (an agent at temperature 0) do not count."""
    new = [a.record_hash for a in run.answers]
    if not new or None in new:
        return None
    # either way round, both runs start with the same record
    imported = {
        row_id(old): old
        for old in session.exec(
            select(AgentRun)
            .join(AgentAnswer, col(AgentAnswer.run_id) == col(AgentRun.id))
            .where(
                AgentRun.model == run.model,
                AgentRun.strategy == run.strategy,
                AgentRun.task_set_hash == task_set_hash,
                AgentAnswer.record_hash == new[0],
            )
        )
    }
    hashes: dict[int, list[str | None]] = {key: [] for key in imported}
    for key, record_hash in session.exec(
        select(AgentAnswer.run_id, AgentAnswer.record_hash)
        .where(col(AgentAnswer.run_id).in_(imported))
        .order_by(col(AgentAnswer.id))  # the order of the source file
    ):
        hashes[key].append(record_hash)
    path, who = result_file.path, f"{run.model} ({run.strategy})"
    for key, old_hashes in hashes.items():
        if len(new) <= len(old_hashes) and old_hashes[: len(new)] == new:
            old = imported[key]
            return None, (
                f"already imported as the start of trial {old.trial} ({old.source_name}), "
                f"nothing added: {path}"
            )
    extended = [key for key, old in hashes.items() if new[: len(old)] == old]
    if not extended:
        return None
    if len(extended) > 1:
        trials = ", ".join(str(imported[key].trial) for key in extended)
        raise CrmTuiError(
            f"{path}: begins with every record of more than one imported {who} run "
            f"(trials {trials}); cannot tell which one it finishes"
        )
    (key,) = extended
    trial, name = imported[key].trial, imported[key].source_name
    session.execute(delete(AgentAnswer).where(col(AgentAnswer.run_id) == key))
    session.execute(delete(AgentRun).where(col(AgentRun.id) == key))
    session.flush()
    answered = _answered_tasks_by_trial(session, run, task_set_hash).get(trial, set())
    clash = sorted({a.task_idx for a in run.answers} & answered)
    if clash:
        raise CrmTuiError(
            f"{path}: finishes {who} trial {trial} ({name}), but that trial has an answer "
            f"for task {clash[0]} from another file"
        )
    return trial, (
        f"replaces {name} in trial {trial} ({len(hashes[key])} -> {len(new)} records: "
        f"the same records, then more): {path}"
    )


def _trial_for(
    session: Session, run: AgentRunRecords, task_set_hash: str, result_file: AgentResultFile
) -> int:
    """The run's own trial if it names one, else the first trial of this model and strategy
    with none of the run's tasks answered yet: re-running the same tasks is a new trial,
    another family's file completes an earlier one."""
    answered = _answered_tasks_by_trial(session, run, task_set_hash)
    tasks = {answer.task_idx for answer in run.answers}
    if run.trial is not None:
        clash = sorted(tasks & answered.get(run.trial, set()))
        if clash:
            raise CrmTuiError(
                f"{result_file.path}: {run.model} ({run.strategy}) trial "
                f"{run.trial} already has an answer for task {clash[0]}"
            )
        return run.trial
    trial = 1
    while tasks & answered.get(trial, set()):
        trial += 1
    return trial


def _answered_tasks_by_trial(
    session: Session, run: AgentRunRecords, task_set_hash: str
) -> dict[int, set[int]]:
    rows = session.exec(
        select(AgentRun.trial, AgentAnswer.idx)
        .join(AgentAnswer, col(AgentAnswer.run_id) == col(AgentRun.id))
        .where(
            AgentRun.model == run.model,
            AgentRun.strategy == run.strategy,
            AgentRun.task_set_hash == task_set_hash,
        )
    )
    answered: dict[int, set[int]] = {}
    for trial, idx in rows:
        answered.setdefault(trial, set()).add(idx)
    return answered


def _answer_row(run_id: int, answer: AgentAnswerRecord, instance: Instance) -> dict[str, object]:
    return {
        "run_id": run_id,
        "idx": answer.task_idx,
        "task": instance.task,
        "answer": answer.answer,
        "crmarena_reward": answer.crmarena_reward,
        "score": float(score_instance(instance, answer.answer)),
        "end_reason": answer.end_reason,
        "record_hash": answer.record_hash,
        # None: no trajectory in the file (its label stays unjudged), not an empty one
        "steps_json": steps_to_json(answer.steps) if answer.traced else None,
        "turns": answer.turns,
        "tokens": answer.tokens,
        "cost": answer.cost,
        "user_turns": answer.user_turns,
        "dialogue_json": dialogue_to_json(answer.dialogue),
    }


def agent_answers(session: Session, task_set_hash: str) -> list[tuple[AgentRun, AgentAnswer]]:
    """Every imported agent answer for a task set, with its run."""
    return list(
        session.exec(
            select(AgentRun, AgentAnswer)
            .join(AgentAnswer, col(AgentAnswer.run_id) == col(AgentRun.id))
            .where(AgentRun.task_set_hash == task_set_hash)
            .order_by(
                col(AgentRun.model),
                col(AgentRun.strategy),
                col(AgentRun.trial),
                col(AgentAnswer.idx),
            )
        )
    )

"""Read agent result files: CRMArena `run_tasks.py` output and a plain JSONL form.

Parsing only, no database: a file becomes an `AgentResultFile` or a CrmTuiError naming the
file and the record index (JSON) or line number (JSONL). Nothing is half-read. Only what
CRMArena counts as a submission becomes an answer; anything else is `NO_SUBMISSION`, with
the reason in `end_reason` (see `_final_answer`).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crm_tui.errors import CrmTuiError
from crm_tui.study.results.dialogue import Turn, agent_dialogue, customer_turns
from crm_tui.study.results.steps import Step, agent_steps, tag_text
from crm_tui.tasks.input_files import loads, read_input
from crm_tui.tasks.scoring import NO_SUBMISSION
from crm_tui.tasks.taskset import MAX_IDX

STRATEGIES = ("act", "react", "tool_call", "tool_call_flex", "tool_call_superface")

# `results_{model}_{strategy}_{task_category}.json`; longer strategy names first so that
# `tool_call_flex` is not read as `tool_call` followed by a task named `flex_...`.
_RESULT_NAME = re.compile(
    r"^results_(?P<model>.+?)_(?P<strategy>"
    + "|".join(sorted(STRATEGIES, key=len, reverse=True))
    + r")_(?P<task>[a-z_,]+)$"
)
# agent_info.end_reason.message when env.step ran a submit (paper-era) or respond action
_SUBMIT_ACTION = "Submit action"
# Llama "prompt mode" function calling writes the call as text.
_PROMPT_MODE_START = re.compile(r"Action:\s*(submit|respond)\s*Action Input:\s*\{")
_ANSWER_TOOLS = ("submit", "respond")


@dataclass(frozen=True)
class AgentAnswerRecord:
    """One agent's final answer to one task instance."""

    task_idx: int
    answer: str | None  # None (NO_SUBMISSION): no submission (error, max turns, ...)
    crmarena_reward: float | None  # CRMArena's own reward (F1 for fuzzy match); None if absent
    gold: str | None = None  # gt_answer as the result file recorded it, if it did
    has_gold: bool = False
    task_type: str | None = None
    end_reason: str = ""  # how the run ended; for no submission, why there is none
    record_hash: str | None = None  # of the record's content, to know it again (checkpoints)
    steps: tuple[Step, ...] = ()  # the trajectory as steps (`steps.py`)
    traced: bool = False  # the record had a trajectory (`traj`), even one with no step
    turns: int | None = None  # agent_info.num_turns (the agent's turns when a pair)
    tokens: int | None = None  # sum of agent_info.usage.total_tokens
    cost: float | None = None  # agent_info.total_cost
    # an interactive CRMArena-Pro run (`dialogue.py`): the customer's turns and the dialogue
    user_turns: int | None = None
    dialogue: tuple[Turn, ...] = ()


@dataclass(frozen=True)
class AgentRunRecords:
    """The answers of one agent (model + strategy) in one trial."""

    model: str
    strategy: str
    trial: int | None  # None: the next free trial, decided at import
    answers: tuple[AgentAnswerRecord, ...]


@dataclass(frozen=True)
class AgentResultFile:
    path: Path
    content_hash: str
    task_category: str | None
    runs: tuple[AgentRunRecords, ...]


def read_agent_results(
    path: Path,
    *,
    model: str | None = None,
    strategy: str | None = None,
    task_category: str | None = None,
) -> AgentResultFile:
    """Parse a result file; options override what the file name says."""
    path = Path(path)
    raw = read_input(path, "an agent result file")
    content_hash = hashlib.sha256(raw).hexdigest()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CrmTuiError(f"{path}: not UTF-8 text") from exc
    _refuse_a_task_set(path, text)
    if path.suffix.lower() == ".jsonl":
        runs = _jsonl_runs(path, text, model=model, strategy=strategy)
        return AgentResultFile(path, content_hash, task_category, runs)
    named = _name_parts(path)
    model = model or named.get("model")
    strategy = strategy or named.get("strategy")
    if not model or not strategy:
        raise CrmTuiError(
            f"{path}: cannot tell the model and strategy from the file name "
            "(expected results_{model}_{strategy}_{task}.json); pass --model and --strategy"
        )
    answers = _crmarena_answers(path, text)
    run = AgentRunRecords(model=model, strategy=strategy, trial=None, answers=answers)
    return AgentResultFile(path, content_hash, task_category or named.get("task"), (run,))


# What a task set's rows hold (CRMArena's and crm-tui's), and a result's never do.
TASK_ROW_KEYS = {"query", "reward_metric"}
RESULT_ROW_KEYS = {"task_id", "agent_info", "agent", "trial"}


def _refuse_a_task_set(path: Path, text: str) -> None:
    """A task set given where result files go: said in one line, with where it goes
    (its name and rows otherwise led to "cannot tell the model" or "missing task_id")."""
    first: Any = None
    try:
        if path.suffix.lower() == ".jsonl":
            line = next((line for line in text.splitlines() if line.strip()), "")
            first = loads(line, str(path)) if line else None
        else:
            rows = loads(text, str(path))
            first = rows[0] if isinstance(rows, list) and rows else None
    except (json.JSONDecodeError, CrmTuiError, RecursionError):
        return  # not JSON: the reading below says what is wrong
    if (
        isinstance(first, dict)
        and TASK_ROW_KEYS <= first.keys()
        and not RESULT_ROW_KEYS & first.keys()
    ):
        raise CrmTuiError(
            f"{path} is a task set (queries with their gold answers), not an agent result "
            "file: pass it as --tasks, with the agent's result files as the arguments"
        )


def _name_parts(path: Path) -> dict[str, str]:
    match = _RESULT_NAME.match(path.stem)
    return match.groupdict() if match else {}


def _crmarena_answers(path: Path, text: str) -> tuple[AgentAnswerRecord, ...]:
    try:
        records = loads(text, str(path))
    except json.JSONDecodeError as exc:
        raise CrmTuiError(f"{path}: invalid JSON at line {exc.lineno}: {exc.msg}") from exc
    if not isinstance(records, list):
        raise CrmTuiError(f"{path}: expected a JSON array of CRMArena result records")
    if not records:
        raise CrmTuiError(f"{path}: an empty array, no CRMArena result records to import")
    answers = []
    seen: set[int] = set()
    for index, record in enumerate(records):
        where = f"{path}: record {index}"
        answer = _crmarena_record(record, where)
        if answer.task_idx in seen:
            raise CrmTuiError(f"{where}: task_id {answer.task_idx} appears twice in the file")
        seen.add(answer.task_idx)
        answers.append(answer)
    return tuple(answers)


def _crmarena_record(record: Any, where: str) -> AgentAnswerRecord:
    if not isinstance(record, dict):
        raise CrmTuiError(f"{where}: expected an object, got {type(record).__name__}")
    for key in ("task_id", "reward", "agent_info"):
        if key not in record:
            raise CrmTuiError(f"{where}: missing field '{key}'")
    task_idx = _task_idx(record["task_id"], f"{where}: task_id")
    reward = _crmarena_reward(record["reward"], f"{where}: reward")
    info = record["agent_info"]
    if not isinstance(info, dict):
        raise CrmTuiError(f"{where}: agent_info must be an object")
    traj = record.get("traj") or []
    if not isinstance(traj, list):
        raise CrmTuiError(f"{where}: traj must be a list of messages")
    for position, message in enumerate(traj):
        calls = message.get("tool_calls") if isinstance(message, dict) else None
        if calls is not None and not isinstance(calls, list):
            raise CrmTuiError(f"{where}: traj[{position}]: tool_calls must be a list")
    has_gold = "gt_answer" in record
    gold = _gold_text(record.get("gt_answer"), f"{where}: gt_answer")
    if "end_reason" not in info and info.get("source") == "api":
        # run_tasks.py caught an exception: no submission, whatever the trajectory holds.
        answer, end_reason = NO_SUBMISSION, str(info.get("content") or "error")
    else:
        answer, end_reason = _final_answer(info.get("end_reason"), traj, where)
    return AgentAnswerRecord(
        task_idx=task_idx,
        answer=answer,
        crmarena_reward=reward,
        gold=gold,
        has_gold=has_gold,
        task_type=_task_type(record.get("task_type"), f"{where}: task_type"),
        end_reason=end_reason,
        record_hash=_record_hash(record),
        steps=agent_steps(traj),
        traced=bool(traj),
        **_usage(info),
        **_dialogue(traj, info),
    )


def _dialogue(traj: list[Any], info: dict[str, Any]) -> dict[str, Any]:
    """An interactive run's dialogue and customer turns (num_turns[0] when the file gives it)."""
    dialogue = agent_dialogue(traj)
    if not dialogue:
        return {}
    turns = info.get("num_turns")
    given = turns[0] if isinstance(turns, list) and len(turns) == 2 else None
    user_turns = given if isinstance(given, int) and not isinstance(given, bool) else None
    return {
        "dialogue": dialogue,
        "user_turns": customer_turns(dialogue) if user_turns is None else user_turns,
    }


def _usage(info: dict[str, Any]) -> dict[str, Any]:
    """Turns, tokens and cost where the file has them (not on an exception record)."""
    turns = info.get("num_turns")
    if isinstance(turns, list) and turns:  # current ChatAgent: [user_turns, agent_turns]
        turns = turns[-1]
    usage = info.get("usage")
    totals = usage.get("total_tokens") if isinstance(usage, dict) else None
    cost = info.get("total_cost")
    return {
        "turns": turns if isinstance(turns, int) and not isinstance(turns, bool) else None,
        "tokens": sum(t for t in totals if isinstance(t, int))
        if isinstance(totals, list)
        else None,
        "cost": float(cost)
        if isinstance(cost, (int, float)) and not isinstance(cost, bool)
        else None,
    }


def _task_type(value: Any, where: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise CrmTuiError(f"{where}: expected a task name, got {type(value).__name__}")
    return value


def _record_hash(record: Any) -> str:
    """Of the record as parsed, not of its bytes: the same record in a checkpoint file and
    in the finished file (run_tasks.py rewrites the array after each task) hash the same."""
    return hashlib.sha256(json.dumps(record).encode()).hexdigest()


def _task_idx(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_IDX:
        raise CrmTuiError(
            f"{where}: expected a task index (a whole number from 0 to {MAX_IDX}), got {value!r}"
        )
    return value


def _crmarena_reward(value: Any, where: str) -> float:
    """0/1 for exact match; for fuzzy match the dict's F1, the number the paper reports."""
    if isinstance(value, dict):
        if "f1" not in value:
            raise CrmTuiError(f"{where}: a fuzzy-match reward needs an 'f1' entry")
        value = value["f1"]
    if not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise CrmTuiError(f"{where}: expected a number from 0 to 1, got {value!r}")
    return float(value)


def _gold_text(value: Any, where: str) -> str | None:
    """A scalar gold, or the one-element list CRMArena's current evaluator needs
    (`[null]` is a None gold); a longer list is joined and will not fit a task set."""
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    return None if value is None else _answer_text(value, where)


def _final_answer(end_reason: Any, traj: list[Any], where: str) -> tuple[str | None, str]:
    """Only what CRMArena counts as a submission is an answer: a run that ended on a
    submit (or respond) action, "Submit action". Every other end (max turns, an invalid
    last turn such as an empty <submit></submit>, a query or tool-call error) is no
    submission, whatever <submit> the trajectory holds: CRMArena never scored it."""
    if end_reason is None:
        # run_tasks.py always writes one; without it, read the last turn as CRMArena would
        return _last_turn_submission(traj)
    if not isinstance(end_reason, dict):
        raise CrmTuiError(f"{where}: agent_info.end_reason must be an object")
    message = str(end_reason.get("message") or "")
    if message != _SUBMIT_ACTION:
        return NO_SUBMISSION, message or "no submission"
    parsed = end_reason.get("parsed_answer")
    if parsed is not None:
        # CRMArena's current evaluator: the answer its reward compared with the gold
        if isinstance(parsed, list):
            parsed = ["None" if item is None else item for item in parsed]
        return _submitted_text(_answer_text(parsed, f"{where}: parsed_answer"), message)
    return _submitted_text(end_reason.get("content"), message)


def _submitted_text(content: Any, message: str) -> tuple[str | None, str]:
    """CRMArena compares what was submitted with the gold as a string (`==`, or F1 over
    text), so only non-blank text can score: a list, a number or null is no submission."""
    if isinstance(content, str) and content.strip():
        return content.strip(), message
    what = "blank" if isinstance(content, str) else f"{type(content).__name__}, not text"
    return NO_SUBMISSION, f"{message}: content is {what}"


def _last_turn_submission(traj: list[Any]) -> tuple[str | None, str]:
    """A submission ends the run, so only the last assistant turn can hold one."""
    for message in reversed(traj):
        if isinstance(message, dict) and message.get("role") == "assistant":
            text = _turn_submission(message)
            if text is not None:
                return text, "submitted (no end_reason)"
            break
    return NO_SUBMISSION, "no submission (no end_reason)"


def _turn_submission(message: dict[str, Any]) -> str | None:
    """The turn's action as CRMArena's parsers read it, if it is a submit or respond:
    function calling runs the first tool call only, with arguments that parse as JSON;
    Act/ReAct run an <execute> before anything else, then the first <submit>/<respond>
    if it is not blank; Llama prompt mode writes `Action: submit` `Action Input: {...}`."""
    calls = message.get("tool_calls") or []  # a list: checked with the record
    if calls:
        function = calls[0].get("function") if isinstance(calls[0], dict) else None
        if isinstance(function, dict) and function.get("name") in _ANSWER_TOOLS:
            return _tool_content(function.get("arguments"))
        return None
    content = message.get("content")
    if not isinstance(content, str):
        return None
    if tag_text("execute", content):
        return None
    for tag in _ANSWER_TOOLS:
        text = tag_text(tag, content)
        if text:
            return text
    # `Action: submit Action Input: {...}` up to the last "}" (as the greedy `\{.*\}`),
    # found in linear time: the first opening decides, as no later one has more after it.
    call = _PROMPT_MODE_START.search(content)
    if call is None:
        return None
    end = content.rfind("}")
    return _tool_content(content[call.end() - 1 : end + 1]) if end >= call.end() - 1 else None


def _tool_content(arguments: Any) -> str | None:
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except json.JSONDecodeError:
            return None  # CRMArena: an invalid action, the run goes on
    if not isinstance(arguments, dict):
        return None
    text, _ = _submitted_text(arguments.get("content"), "")
    return text


def _answer_text(value: Any, where: str) -> str:
    """Answers are scalars; a CRMArena-Pro style list is joined with commas."""
    if isinstance(value, list):
        return ", ".join(_answer_text(item, where) for item in value)
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return str(value).strip()
    raise CrmTuiError(f"{where}: expected a text answer, got {type(value).__name__}")


def _jsonl_runs(
    path: Path, text: str, *, model: str | None, strategy: str | None
) -> tuple[AgentRunRecords, ...]:
    """One object per line: {"idx", "agent", "trial", "answer"}, optionally "strategy" and
    "reward"; `model` and `strategy` options override the lines. An answer of null is no
    submission; the None answer is the text "None"."""
    grouped: dict[tuple[str, str, int], dict[int, AgentAnswerRecord]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}: line {number}"
        try:
            row = loads(line, where)
        except json.JSONDecodeError as exc:
            raise CrmTuiError(f"{where}: invalid JSON ({exc.msg})") from exc
        if not isinstance(row, dict):
            raise CrmTuiError(f"{where}: expected an object")
        missing = [key for key in ("idx", "answer") if key not in row]
        if missing:
            raise CrmTuiError(f"{where}: missing field '{missing[0]}'")
        agent = model or row.get("agent")
        if not isinstance(agent, str) or not agent.strip():
            raise CrmTuiError(f"{where}: missing field 'agent' (or pass --model)")
        run_strategy = strategy or row.get("strategy") or "custom"
        trial = row.get("trial", 1)
        if isinstance(trial, bool) or not isinstance(trial, int) or not 1 <= trial <= MAX_IDX:
            raise CrmTuiError(
                f"{where}: trial must be a whole number from 1 to {MAX_IDX}, got {trial!r}"
            )
        task_idx = _task_idx(row["idx"], f"{where}: idx")
        # null is no submission; the None answer is the text "None"
        answer = (
            NO_SUBMISSION
            if row["answer"] is None
            else _answer_text(row["answer"], f"{where}: answer")
        )
        reward = row.get("reward")
        if reward is not None:
            reward = _crmarena_reward(reward, f"{where}: reward")
        answers = grouped.setdefault((agent.strip(), str(run_strategy), trial), {})
        if task_idx in answers:
            raise CrmTuiError(
                f"{where}: task {task_idx} already answered by {agent} in trial {trial}"
            )
        answers[task_idx] = AgentAnswerRecord(
            task_idx=task_idx,
            answer=answer,
            crmarena_reward=reward,
            end_reason="no submission" if answer is NO_SUBMISSION else "",
            record_hash=_record_hash(row),
        )
    if not grouped:
        raise CrmTuiError(f"{path}: no answers found")
    return tuple(
        AgentRunRecords(model=m, strategy=s, trial=t, answers=tuple(a.values()))
        for (m, s, t), a in grouped.items()
    )

"""One step model for how a query was solved, by a person or by an agent.

A step is one thing done: look records up (an agent's `get_*` tool), search, filter a list
or run a report, run a SOQL/SOSL query, read a record, answer. Each says what it touched
(object, record Ids, rows) and what it put in front of the solver (`seen`: Ids and short
values), and when: active milliseconds since the attempt opened for people, the turn for
agents. People's steps come from the attempt's event log (`human_steps`), agents' from the
trajectory in a CRMArena result file (`agent_steps`, CRMArena's results file format: Act/ReAct text turns,
function-calling `tool_calls`, Llama's `Action:` text).
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields, replace
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol

from crm_tui.errors import CrmTuiError
from crm_tui.study.store.models import EventKind
from crm_tui.study.work.clock import as_utc
from crm_tui.study.work.timing import Stamped


class StepKind(StrEnum):
    LOOKUP = "lookup"  # an agent's lookup tool (get_cases, ...)
    SEARCH = "search"  # global search, SOSL
    FILTER = "filter"  # a filtered list or a report
    QUERY = "query"  # SOQL typed or sent
    READ = "read"  # a record page opened
    ANSWER = "answer"  # an answer taken, edited or submitted
    # multi-turn solving: a turn of the dialogue, in its place among the steps; not a step
    # of the search (`search_steps`), so step counts are the same however much was said
    CUSTOMER = "customer"  # the customer said it
    REPLY = "reply"  # the solver said it to the customer (an agent's reply is its ANSWER)


DIALOGUE_KINDS = frozenset({StepKind.CUSTOMER, StepKind.REPLY})


@dataclass(frozen=True)
class Step:
    kind: str  # a StepKind value
    at: int  # people: active ms since the attempt opened; agents: the assistant turn
    detail: str = ""  # the query, search text, tool call or answer
    object_name: str | None = None
    record_ids: tuple[str, ...] = ()  # records touched: opened, or returned
    rows: int | None = None  # rows returned, when known
    values: tuple[str, ...] = ()  # other short values shown (months, states, names...)


# Salesforce Ids: 15 or 18 letters and digits, at least one a digit (`_is_id`: so
# "Description" or "Opportunities" are not Ids; checked apart, a lookahead was 5x slower).
_SF_ID = re.compile(r"(?<![A-Za-z0-9])[A-Za-z0-9]{15}(?:[A-Za-z0-9]{3})?(?![A-Za-z0-9])")
# quoted strings in an observation (Python repr or JSON), each consumed whole
# (with what follows it: a ':' makes it a key, not a value)
_QUOTED = re.compile(
    r"'([^'\\\n]*(?:\\.[^'\\\n]*)*)'(\s*:)?" + r'|"([^"\\\n]*(?:\\.[^"\\\n]*)*)"(\s*:)?'
)
MAX_VALUE = 80  # longer texts (descriptions, bodies) are no month or state
_FROM = re.compile(r"\bFROM\s+([A-Za-z_][A-Za-z0-9_]*)", re.IGNORECASE)
_RETURNING = re.compile(r"\bRETURNING\s+([A-Za-z_][A-Za-z0-9_]*)", re.IGNORECASE)
_PROMPT_ACTION = re.compile(r"Action:\s*([A-Za-z_][A-Za-z0-9_]*)\s*Action Input:\s*(.*)", re.DOTALL)
_OUTPUT_PREFIX = "Salesforce instance output:"
# What one step keeps of what it saw: a step past this many is kept in part (an agent
# that fetched 2,000 records saw them all, but a trace of them is not worth megabytes).
MAX_SEEN = 400
_ANSWER_TOOLS = ("submit", "respond")


def ids_in(text: str) -> tuple[str, ...]:
    """Salesforce Ids in a text, in order, each once."""
    return tuple(dict.fromkeys(i for i in _SF_ID.findall(text) if _is_id(i)))[:MAX_SEEN]


def _is_id(token: str) -> bool:
    return not token.isalpha()  # letters and digits: so at least one digit


def values_in(text: str) -> tuple[str, ...]:
    """Short quoted values that are not Ids, in order, each once."""
    found = dict.fromkeys(
        single or double
        for single, key1, double, key2 in _QUOTED.findall(text)
        if not (key1 or key2)
    )
    kept = (
        v
        for v in found
        if v.strip() and len(v) <= MAX_VALUE and not (_SF_ID.fullmatch(v) and _is_id(v))
    )
    return tuple(kept)[:MAX_SEEN]


def same_id(a: str, b: str) -> bool:
    """The 15-character Id and its 18-character form name the same record."""
    return len(a) in (15, 18) and len(b) in (15, 18) and a[:15] == b[:15]


def query_object(query: str) -> str | None:
    match = _FROM.search(query) or _RETURNING.search(query)
    return match.group(1) if match else None


# ----------------------------------------------------------------- agents
def agent_steps(traj: Sequence[Any]) -> tuple[Step, ...]:
    """The steps of a CRMArena trajectory: each assistant action with the observation that
    answered it. Malformed messages are skipped (the answer's reading checks the record)."""
    steps: list[Step] = []
    turn = 0
    pending: dict[str, int] = {}  # tool_call_id -> index in steps, waiting for its output
    last_text_step: int | None = None  # a text action waiting for "Salesforce instance output"
    for message in traj:
        if not isinstance(message, dict):
            continue
        role = message.get("role")
        content = message.get("content")
        text = content if isinstance(content, str) else ""
        if role == "assistant":
            turn += 1
            last_text_step = None
            calls = message.get("tool_calls")
            if isinstance(calls, list) and calls:
                for call in calls:
                    step = _tool_call_step(call, turn)
                    if step is None:
                        continue
                    steps.append(step)
                    if isinstance(call, dict) and isinstance(call.get("id"), str):
                        pending[call["id"]] = len(steps) - 1
                continue
            step = _text_step(text, turn)
            if step is not None:
                steps.append(step)
                if step.kind != StepKind.ANSWER:
                    last_text_step = len(steps) - 1
        elif role == "tool":
            key = message.get("tool_call_id")
            position = pending.pop(key, None) if isinstance(key, str) else None
            if position is None and steps and steps[-1].kind != StepKind.ANSWER:
                position = len(steps) - 1
            if position is not None:
                steps[position] = _observed(steps[position], text)
        elif role == "user" and last_text_step is not None:
            # Act/ReAct: the environment's answer to an <execute>, or Llama's tool output
            steps[last_text_step] = _observed(steps[last_text_step], text)
            last_text_step = None
    return tuple(steps)


def _text_step(text: str, turn: int) -> Step | None:
    """CRMArena's text parser: an <execute> first, else a non-blank <submit>/<respond>."""
    query = tag_text("execute", text)
    if query:
        kind = StepKind.SEARCH if query.lstrip().upper().startswith("FIND") else StepKind.QUERY
        return Step(kind, turn, query, query_object(query))
    for tag in _ANSWER_TOOLS:
        answer = tag_text(tag, text)
        if answer:
            return Step(StepKind.ANSWER, turn, answer)
    action = _PROMPT_ACTION.search(text)
    if action:
        return _tool_step(action.group(1), action.group(2).strip(), turn)
    return None


def _tool_call_step(call: Any, turn: int) -> Step | None:
    function = call.get("function") if isinstance(call, dict) else None
    if not isinstance(function, dict) or not isinstance(function.get("name"), str):
        return None
    arguments = function.get("arguments")
    if not isinstance(arguments, str):
        arguments = json.dumps(arguments)
    return _tool_step(function["name"], arguments, turn)


def _tool_step(name: str, arguments: str, turn: int) -> Step:
    if name in _ANSWER_TOOLS:
        try:
            parsed = json.loads(arguments)
        except json.JSONDecodeError:
            parsed = None
        content = parsed.get("content") if isinstance(parsed, dict) else None
        return Step(StepKind.ANSWER, turn, str(content) if content is not None else arguments)
    lowered = name.lower()
    if "sosl" in lowered or "search" in lowered:
        kind = StepKind.SEARCH
    elif "soql" in lowered or "query" in lowered:
        kind = StepKind.QUERY
    else:
        kind = StepKind.LOOKUP
    return Step(kind, turn, f"{name}({arguments})", query_object(arguments))


def _observed(step: Step, observation: str) -> Step:
    text = observation.removeprefix(_OUTPUT_PREFIX)
    ids = ids_in(text)
    rows = text.count("{") or (len(ids) if ids else 0)
    return Step(step.kind, step.at, step.detail, step.object_name, ids, rows, values_in(text))


def tag_text(tag: str, content: str) -> str:
    """The text of the first <tag>...</tag> (as `<tag>(.*?)</tag>` finds it), in linear
    time: a turn of 40,000 unclosed tags made the regular expression quadratic."""
    opening, closing = f"<{tag}>", f"</{tag}>"
    start = content.find(opening)
    if start < 0:
        return ""
    end = content.find(closing, start + len(opening))
    return content[start + len(opening) : end].strip() if end >= 0 else ""


# ----------------------------------------------------------------- people
class StepEvent(Stamped, Protocol):
    """An event as steps read it: timing's stamps plus the payload."""

    @property
    def payload_json(self) -> str | None: ...


def human_steps(events: Sequence[StepEvent]) -> tuple[Step, ...]:
    """The steps of an attempt from its event log, each at the active time it happened."""
    steps: list[Step] = []
    for event, active_ms in zip(events, active_marks(events), strict=True):
        payload = _payload(event.payload_json)
        if event.kind == EventKind.ROWS_SHOWN:
            _rows_shown(steps, payload, active_ms)
            continue
        step = _event_step(event.kind, payload, active_ms)
        if step is None:
            continue
        if step.kind == StepKind.SEARCH and steps and steps[-1].kind == StepKind.SEARCH:
            # search_run is written on leaving the results, which rows_shown already made a step
            steps[-1] = replace(steps[-1], detail=step.detail or steps[-1].detail)
            continue
        if step.kind == StepKind.FILTER and _same_list(steps, step.object_name):
            # the filtered list's rows came first (rows_shown), its filter_set on navigating
            steps[-1] = replace(steps[-1], kind=StepKind.FILTER, detail=step.detail)
            continue
        steps.append(step)
    return tuple(steps)


class SaidTurn(Protocol):
    """What the traces read of a conversation turn (a `ConversationTurn` row)."""

    @property
    def role(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def at(self) -> datetime: ...


def human_dialogue(events: Sequence[Stamped], turns: Sequence[SaidTurn]) -> tuple[Step, ...]:
    """A person's conversation as steps, each at the active time it was said: the active
    time of the last event before it, plus the wall time since, at most up to the next
    event's (a pause or a lost focus in between does not count)."""
    marks = active_marks(events)
    walls = [as_utc(event.wall) for event in events]
    out = []
    for turn in turns:
        said = as_utc(turn.at)
        at = 0
        n = bisect_right(walls, said) - 1  # events are written in time order
        if n >= 0:
            since = int((said - walls[n]).total_seconds() * 1000)
            room = marks[n + 1] - marks[n] if n + 1 < len(marks) else since
            at = marks[n] + max(0, min(since, room))
        kind = StepKind.CUSTOMER if turn.role == "customer" else StepKind.REPLY
        out.append(Step(kind, at, turn.text))
    return tuple(out)


def with_dialogue(steps: Sequence[Step], dialogue: Sequence[Step]) -> tuple[Step, ...]:
    """The steps with the dialogue's turns in their places by time; a turn said at the
    same time as a step comes first (the customer's opener before anything is done)."""
    if not dialogue:
        return tuple(steps)
    merged = sorted(
        [(step.at, 0, n, step) for n, step in enumerate(dialogue)]
        + [(step.at, 1, n, step) for n, step in enumerate(steps)],
        key=lambda entry: entry[:3],
    )
    return tuple(step for *_, step in merged)


def search_steps(steps: Sequence[Step]) -> list[Step]:
    """The steps without the dialogue's turns."""
    return [step for step in steps if step.kind not in DIALOGUE_KINDS]


def answer_edits(events: Sequence[StepEvent]) -> tuple[Step, ...]:
    """The answer as it was edited (`answer_edited`: each text it settled on while typing),
    at the active time of each. Shown in the replay beside the steps, never one of them:
    typing is not a step of the search, and step measures must not grow with it."""
    return tuple(
        Step(StepKind.ANSWER, active_ms, str(_payload(event.payload_json).get("text") or ""))
        for event, active_ms in zip(events, active_marks(events), strict=True)
        if event.kind == EventKind.ANSWER_EDITED
    )


def _same_list(steps: list[Step], object_name: str | None) -> bool:
    last = steps[-1] if steps else None
    return (
        last is not None
        and last.kind in (StepKind.LOOKUP, StepKind.FILTER)
        and last.object_name == object_name
    )


def _rows_shown(steps: list[Step], payload: dict[str, Any], at: int) -> None:
    """Rows of a list page or search results on screen: more pages of the same list, or
    results while the search text is typed, add to the step on screen; else a new step
    (a list opened: a lookup; results: a search). A record page's related rows add to
    the record read."""
    ids = _strings(payload.get("ids"))
    last = steps[-1] if steps else None
    if payload.get("via") == "related" and last is not None and last.kind == StepKind.READ:
        # a record page's related rows are part of reading it: seen, not another step
        merged = tuple(dict.fromkeys(last.record_ids + ids))[:MAX_SEEN]
        steps[-1] = replace(last, record_ids=merged)
        return
    search = payload.get("via") == "search"
    object_name = None if search else payload.get("object")
    same = last is not None and (
        last.kind == StepKind.SEARCH if search else _same_list(steps, object_name)
    )
    if last is not None and same:
        merged = tuple(dict.fromkeys(last.record_ids + ids))[:MAX_SEEN]
        detail = str(payload.get("text") or last.detail) if search else last.detail
        steps[-1] = replace(last, detail=detail, record_ids=merged, rows=len(merged))
        return
    kind = StepKind.SEARCH if search else StepKind.LOOKUP
    detail = str(payload.get("text") or "") if search else ""
    steps.append(Step(kind, at, detail, object_name, ids[:MAX_SEEN], len(ids)))


def _payload(text: str | None) -> dict[str, Any]:
    try:
        value = json.loads(text) if text else {}
    except json.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()


def _event_step(kind: str, payload: dict[str, Any], at: int) -> Step | None:
    match kind:
        case EventKind.RECORD_VIEWED:
            record_id = str(payload.get("record_id") or "")
            return Step(StepKind.READ, at, record_id, None, (record_id,) if record_id else ())
        case EventKind.SEARCH_RUN:
            return Step(StepKind.SEARCH, at, str(payload.get("text") or ""))
        case EventKind.FILTER_SET:
            filters = "; ".join(_strings(payload.get("filters")))
            return Step(StepKind.FILTER, at, filters, payload.get("object"))
        case EventKind.SOQL_RUN:
            query = str(payload.get("query") or "")
            shown = _strings(payload.get("shown"))
            return Step(
                StepKind.QUERY,
                at,
                query,
                query_object(query),
                tuple(v for v in shown if _SF_ID.fullmatch(v) and _is_id(v)),
                payload.get("rows"),
                tuple(v for v in shown if not (_SF_ID.fullmatch(v) and _is_id(v))),
            )
        case EventKind.REPORT_RUN:
            definition = payload.get("definition")
            name = definition.get("object") if isinstance(definition, dict) else None
            # its groups' record Ids and labels, or its rows' records, as on screen
            seen = _strings(payload.get("shown"))[:MAX_SEEN]
            return Step(
                StepKind.FILTER,
                at,
                "report",
                name if isinstance(name, str) else None,
                tuple(v for v in seen if _SF_ID.fullmatch(v) and _is_id(v)),
                payload.get("rows"),
                tuple(v for v in seen if not (_SF_ID.fullmatch(v) and _is_id(v))),
            )
        case EventKind.ANSWER_USED:
            used = str(payload.get("record_id") or payload.get("value") or "")
            return Step(StepKind.ANSWER, at, used, payload.get("object"))
        case EventKind.ANSWER_SUBMITTED:
            return Step(StepKind.ANSWER, at, str(payload.get("answer") or ""))
    return None


def active_marks(events: Sequence[Stamped]) -> list[int]:
    """Active ms up to each event, by `timing.derive`'s rules, in one pass."""
    marks: list[int] = []
    active = 0
    running = paused = False
    focused = True
    previous: Stamped | None = None
    stops = {EventKind.CLOSED, EventKind.ANSWER_SUBMITTED, EventKind.SKIPPED, EventKind.EXPIRED}
    for event in events:
        counting = running and not paused and focused
        if previous is not None and counting and event.kind != EventKind.OPENED:
            active += max(0, event.monotonic_ms - previous.monotonic_ms)
        marks.append(active)
        if event.kind == EventKind.OPENED:
            running, paused, focused = True, False, True
        elif event.kind == EventKind.PAUSED:
            paused = True
        elif event.kind == EventKind.RESUMED:
            paused = False
        elif event.kind == EventKind.FOCUS_LOST:
            focused = False
        elif event.kind == EventKind.FOCUS_REGAINED:
            focused = True
        elif event.kind in stops:
            running = False
        previous = event
    return marks


# ----------------------------------------------------------------- storage form
_FIELDS = tuple(f.name for f in fields(Step))


def astuple_shallow(step: Step) -> tuple[Any, ...]:
    """The step's fields, not copied (`dataclasses.astuple` deep-copies: 10x slower)."""
    return tuple(getattr(step, name) for name in _FIELDS)


def steps_to_json(steps: Iterable[Step]) -> str:
    """Compact JSON for the study file: empty fields left out."""
    rows = [
        {k: v for k, v in zip(_FIELDS, astuple_shallow(step), strict=True) if v or v == 0}
        for step in steps
    ]
    return json.dumps(rows, separators=(",", ":"), ensure_ascii=False)


def steps_from_json(text: str | None, where: str = "steps") -> tuple[Step, ...]:
    if not text:
        return ()
    try:
        rows = json.loads(text)
        return tuple(
            Step(
                kind=row["kind"],
                at=int(row["at"]),
                detail=row.get("detail", ""),
                object_name=row.get("object_name"),
                record_ids=tuple(row.get("record_ids", ())),
                rows=row.get("rows"),
                values=tuple(row.get("values", ())),
            )
            for row in rows
        )
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
        raise CrmTuiError(f"{where}: not a list of steps ({exc})") from exc

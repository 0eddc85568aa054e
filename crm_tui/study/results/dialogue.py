"""The dialogue of an interactive CRMArena-Pro run (`run_tasks.py --interactive`).

In an interactive run the agent never sees the query: a simulated customer opens, and the
agent alternates between querying the org and replying with a `respond` action; the
customer's answer comes back as the next `user` message, and `###STOP###` ends the run.
The trajectory (`traj`) so holds the dialogue; read here as these assumptions state:
- a `user` message is the customer's turn unless it is the org's output to an <execute>
  (Act/ReAct: it starts "Salesforce instance output:") or follows a tool call;
- an `assistant` message whose action is `respond` (a <respond> tag, or a `respond` tool
  call) is the agent's turn; its other actions are steps (`steps.py`), not turns;
- a run is interactive when a customer turn follows an agent's reply; a single-turn run
  has no dialogue (its one `user` message is the query).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from crm_tui.study.results.steps import Step, StepKind, tag_text

CUSTOMER = "customer"
AGENT = "agent"
STOP = "###STOP###"
_OUTPUT_PREFIX = "Salesforce instance output:"


@dataclass(frozen=True)
class Turn:
    role: str  # CUSTOMER or AGENT
    text: str


def agent_dialogue(traj: Sequence[Any]) -> tuple[Turn, ...]:
    """The customer's and the agent's turns of an interactive run; () for a single-turn one."""
    turns: list[Turn] = []
    after_action = False  # the last assistant turn ran a query or a tool: its output follows
    for message in traj:
        if not isinstance(message, dict):
            continue
        role, content = message.get("role"), message.get("content")
        text = content if isinstance(content, str) else ""
        if role == "assistant":
            reply = _reply(message, text)
            after_action = reply is None
            if reply is not None:
                turns.append(Turn(AGENT, reply))
        elif role == "user":
            if not after_action and not text.lstrip().startswith(_OUTPUT_PREFIX):
                turns.append(Turn(CUSTOMER, text.strip()))
            after_action = False
        elif role == "tool":
            after_action = False
    interactive = any(
        earlier.role == AGENT and later.role == CUSTOMER for earlier, later in zip(turns, turns[1:])
    )
    return tuple(turns) if interactive else ()


def customer_turns(dialogue: Sequence[Turn]) -> int:
    return sum(1 for turn in dialogue if turn.role == CUSTOMER)


def _reply(message: dict[str, Any], text: str) -> str | None:
    calls = message.get("tool_calls")
    if isinstance(calls, list) and calls:
        function = calls[0].get("function") if isinstance(calls[0], dict) else None
        if isinstance(function, dict) and function.get("name") == "respond":
            arguments = function.get("arguments")
            if isinstance(arguments, str):
                try:
                    arguments = json.loads(arguments)
                except json.JSONDecodeError:
                    return None
            content = arguments.get("content") if isinstance(arguments, dict) else None
            return str(content).strip() if content is not None else None
        return None
    if tag_text("execute", text):
        return None
    reply = tag_text("respond", text) or tag_text("submit", text)
    return reply.strip() or None if reply else None


def dialogue_to_json(dialogue: Sequence[Turn]) -> str | None:
    if not dialogue:
        return None
    return json.dumps([{"role": t.role, "text": t.text} for t in dialogue], ensure_ascii=False)


def dialogue_from_json(text: str | None) -> tuple[Turn, ...]:
    if not text:
        return ()
    rows = json.loads(text)
    return tuple(Turn(str(row["role"]), str(row["text"])) for row in rows)


def with_agent_dialogue(steps: Sequence[Step], dialogue: Sequence[Turn]) -> tuple[Step, ...]:
    """An agent's steps with the customer's turns in their places: the opener first, and
    what the customer said after the agent's k-th reply right after its k-th answer step
    (its `respond`, which is that reply); turns past the last reply at the end."""
    if not dialogue:
        return tuple(steps)
    after: list[list[Turn]] = [[]]  # the customer's turns after each agent turn; [0]: before
    for turn in dialogue:
        if turn.role == AGENT:
            after.append([])
        else:
            after[-1].append(turn)
    out = [Step(StepKind.CUSTOMER, 0, turn.text) for turn in after[0]]
    replies = 0
    for step in steps:
        out.append(step)
        if step.kind == StepKind.ANSWER and replies + 1 < len(after):
            replies += 1
            out += [Step(StepKind.CUSTOMER, step.at, turn.text) for turn in after[replies]]
    at = out[-1].at if out else 0
    out += [
        Step(StepKind.CUSTOMER, at, turn.text) for rest in after[replies + 1 :] for turn in rest
    ]
    return tuple(out)

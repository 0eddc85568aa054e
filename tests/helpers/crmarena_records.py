"""CRMArena-shaped result records (CRMArena's results file format) for the agent import tests, one per outcome.

Each record is what CRMArena's `run_tasks.py` writes (paper-era and current code): Act/ReAct
text turns with `<execute>`/`<submit>`/`<respond>`, function calling with `tool_calls`, and
the reward CRMArena computed. `TEXT_CASES` and `FC_CASES` say, per record, what the import
must read (None: no submission) and what our re-score must be; `decision` names the documentation's
scoring rule where our re-score and CRMArena's reward differ on purpose.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

SYSTEM = {"role": "system", "content": "You are an expert in Salesforce ..."}
OUTPUT = {"role": "user", "content": "Salesforce instance output: [{'Id': '500Ws000001ABCDIA2'}]"}
REACT_RULE = {"role": "user", "content": "Invalid output format! Use <execute> or <submit>."}
QUERY = "Thought: query the cases.\n<execute>SELECT Id FROM Case LIMIT 5</execute>"
ANSWERED = re.compile(r"<(submit|respond)>\s*\S.*?</\1>", re.DOTALL)


def submitted(content: Any, **extra: Any) -> dict[str, Any]:
    """`env.step` on a submit (or respond) action: the run ends and is scored."""
    return {"source": "agent", "message": "Submit action", "content": content, **extra}


def ended(message: str, content: Any, source: str = "agent") -> dict[str, Any]:
    """Any other end: max turns, an invalid last turn, a query or tool-call error."""
    return {"source": source, "message": message, "content": content}


def record(
    task_id: int,
    task_type: str,
    gold: Any,
    reward: Any,
    traj: list[dict[str, Any]],
    end_reason: dict[str, Any] | None,
) -> dict[str, Any]:
    info: dict[str, Any] = {"observation_sizes": [1], "total_cost": 0.01, "num_turns": 3}
    if end_reason is not None:
        info["end_reason"] = end_reason
    return {
        "task_id": task_id,
        "task_type": task_type,
        "gt_answer": gold,
        "reward": reward,
        "agent_info": info,
        "traj": traj,
    }


def crashed(task_id: int, task_type: str, gold: Any, traj: list[dict[str, Any]]) -> dict[str, Any]:
    """run_tasks.py caught an exception: `source: api`, reward 0, the trajectory so far."""
    return {
        "task_id": task_id,
        "task_type": task_type,
        "gt_answer": gold,
        "reward": 0,
        "agent_info": {"source": "api", "content": "Error: Rate limit exceeded"},
        "traj": traj,
    }


def text_traj(*turns: str) -> list[dict[str, Any]]:
    """Act/ReAct: each assistant turn is followed by the instance output or the format rule."""
    traj: list[dict[str, Any]] = [SYSTEM, {"role": "user", "content": "the query"}]
    for turn in turns:
        traj.append({"role": "assistant", "content": turn})
        if "<execute>" in turn:
            traj.append(OUTPUT)
        elif not ANSWERED.search(turn):  # an invalid action: the format rule follows
            traj.append(REACT_RULE)
    return traj


def call(name: str, arguments: str, number: int = 1) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": f"call_{number}",
                "type": "function",
                "function": {"name": name, "arguments": arguments},
            }
        ],
    }


def tool_output(name: str, content: str, number: int = 1) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": f"call_{number}", "name": name, "content": content}


def fc_traj(*messages: dict[str, Any]) -> list[dict[str, Any]]:
    return [SYSTEM, {"role": "user", "content": "the query"}, *messages]


GET_CASES = call("get_cases", json.dumps({"start_date": "2021-01-01T00:00:00Z"}))
CASES_OUT = tool_output("get_cases", "['500Ws000001ABCDIA2']")
INVALID_CALL = tool_output(
    "submit",
    "Invalid tool call argument. Please make a valid tool call using the tools provided "
    "or submit the final answer using the 'submit' tool.",
)


def f1_reward(f1: float) -> dict[str, Any]:
    return {"em": f1 == 1, "f1": f1, "bleu": 0.0, "rouge": {}}


@dataclass(frozen=True)
class Case:
    name: str
    record: dict[str, Any]
    answer: str | None  # what the import reads; None = no submission
    score: float  # our re-score
    decision: str = ""  # the scoring decision (docs: tasks.md) when score != CRMArena's reward

    @property
    def reward(self) -> float:
        value = self.record["reward"]
        return float(value["f1"] if isinstance(value, dict) else value)


# Golds in ../shared/crmarena/tasks_natural.json: None for 653, 659, 666 (handle_time),
# 782, 784, 788 (transfer_count), 910, 922, 924 (policy_violation_identification),
# 520, 521 (named_entity_disambiguation), 262, 263 (top_issue_identification).
ID390, ID391, ID650 = "005Ws000001xadBIAQ", "005Ws000001xZvdIAE", "005Ws000001xSR9IAM"
HT, TC, PV, NE, TI = (
    "handle_time",
    "transfer_count",
    "policy_violation_identification",
    "named_entity_disambiguation",
    "top_issue_identification",
)
KQA, MTA, NCR, BRI = (
    "knowledge_qa",
    "monthly_trend_analysis",
    "case_routing",
    "best_region_identification",
)
SUBMIT_NONE = "Thought: nobody qualifies.\n<submit>None</submit>"

TEXT_CASES = [
    Case(
        "submit, right",
        record(390, NCR, ID390, 1, text_traj(QUERY, f"<submit>{ID390}</submit>"), submitted(ID390)),
        ID390,
        1.0,
    ),
    Case(
        "submit None, gold None",
        record(653, HT, None, 1, text_traj(QUERY, SUBMIT_NONE), submitted("None")),
        "None",
        1.0,
    ),
    Case("exception record", crashed(659, HT, None, text_traj(QUERY, SUBMIT_NONE)), None, 0.0),
    Case(
        "max turns without submit",
        record(666, HT, None, 0, text_traj(QUERY, QUERY, QUERY), ended("Max turns reached", QUERY)),
        None,
        0.0,
    ),
    Case(
        "submit in a turn that also executes",
        record(
            782,
            TC,
            None,
            0,
            text_traj(QUERY, "<execute>SELECT Id FROM User</execute>\n<submit>None</submit>"),
            ended("Max turns reached", "<execute>SELECT Id FROM User</execute>"),
        ),
        None,
        0.0,
    ),
    Case(
        "empty submit",
        record(
            784,
            TC,
            None,
            0,
            text_traj(QUERY, "<submit></submit>"),
            ended("Invalid action", "<submit></submit>"),
        ),
        None,
        0.0,
    ),
    Case(
        "empty respond",
        record(
            788,
            TC,
            None,
            0,
            text_traj(QUERY, "<respond> </respond>"),
            ended("Invalid action", "<respond> </respond>"),
        ),
        None,
        0.0,
    ),
    Case(
        "query error ends the run",
        record(
            910,
            PV,
            None,
            0,
            text_traj(QUERY, QUERY),
            ended("SOQL/SOSL query error", "MALFORMED_QUERY: unexpected token"),
        ),
        None,
        0.0,
    ),
    Case(
        "list gold [null], current code's respond",
        record(
            520,
            NE,
            [None],
            1,
            text_traj(QUERY, "<respond>None</respond>"),
            submitted("None", parsed_answer=["None"]),
        ),
        "None",
        1.0,
    ),
    Case(
        "list gold, parsed answer",
        record(
            650,
            HT,
            [ID650],
            1,
            text_traj(QUERY, f"<respond>The agent is {ID650}</respond>"),
            submitted(f"The agent is {ID650}", parsed_answer=[ID650]),
        ),
        ID650,
        1.0,
    ),
    Case(
        "typographic double quotes in knowledge QA",
        record(
            1,
            KQA,
            "90 days.",
            f1_reward(0.4),
            text_traj(QUERY, "<submit>\u201c90 days.\u201d</submit>"),
            submitted("\u201c90 days.\u201d"),
        ),
        "\u201c90 days.\u201d",
        0.4,
    ),
    Case(
        "15-character Id",
        record(
            391, NCR, ID391, 0, text_traj(f"<submit>{ID391[:15]}</submit>"), submitted(ID391[:15])
        ),
        ID391[:15],
        1.0,
        "15 = 18 characters",
    ),
    Case(
        "null for None",
        record(262, TI, None, 0, text_traj("<submit>null</submit>"), submitted("null")),
        "null",
        1.0,
        "None/null/empty",
    ),
    Case(
        "state code case",
        record(1040, BRI, "OR", 0, text_traj("<submit>or</submit>"), submitted("or")),
        "or",
        1.0,
        "state codes case-insensitive",
    ),
]

FC_CASES = [
    Case(
        "submit tool, right",
        record(
            130,
            MTA,
            "March",
            1,
            fc_traj(GET_CASES, CASES_OUT, call("submit", '{"content": "March"}', 2)),
            submitted("March"),
        ),
        "March",
        1.0,
    ),
    Case(
        "max turns on a tool call",
        record(
            921,
            PV,
            "ka0Ws000000Qrn3IAC",
            0,
            fc_traj(GET_CASES, CASES_OUT),
            ended("tool_call error: get_cases", "['500Ws000001ABCDIA2']", "tool"),
        ),
        None,
        0.0,
    ),
    Case(
        "tool-call error ends the run",
        record(
            922,
            PV,
            None,
            0,
            fc_traj(
                GET_CASES,
                tool_output("get_cases", "Error: start_date must be YYYY-MM-DDTHH:MM:SSZ"),
            ),
            ended(
                "tool_call error: get_cases",
                "Error: start_date must be YYYY-MM-DDTHH:MM:SSZ",
                "tool",
            ),
        ),
        None,
        0.0,
    ),
    Case(
        "submit with content null",
        record(
            924,
            PV,
            None,
            0,
            fc_traj(GET_CASES, CASES_OUT, call("submit", '{"content": null}', 2)),
            submitted(None),
        ),
        None,
        0.0,
    ),
    Case(
        "malformed submit arguments, then max turns",
        record(
            521,
            NE,
            None,
            0,
            fc_traj(call("submit", '{"content": "None"'), INVALID_CALL, GET_CASES, CASES_OUT),
            ended("tool_call error: get_cases", "['500Ws000001ABCDIA2']", "tool"),
        ),
        None,
        0.0,
    ),
    Case(
        "malformed submit arguments, then a crash",
        crashed(263, TI, None, fc_traj(call("submit", "{'content': 'None'}"))),
        None,
        0.0,
    ),
    Case(
        "list content",
        record(
            131,
            MTA,
            "January",
            0,
            fc_traj(call("submit", '{"content": ["January"]}')),
            submitted(["January"]),
        ),
        None,
        0.0,
    ),
    Case(
        "respond tool, right",
        record(
            391,
            NCR,
            ID391,
            1,
            fc_traj(call("respond", json.dumps({"content": ID391}))),
            submitted(ID391),
        ),
        ID391,
        1.0,
    ),
]

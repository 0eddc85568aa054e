"""A multi-turn solve in the process traces and the report: its dialogue among the steps
by time, the details the person drew from the customer and the time to the first useful
query, per item in the tables, the CSV and the JSON.

Worked out by hand (HTU, reads Case and User): the customer opens at 0 s; a query of
Account at 10 s (not an object the family reads); "What's your name?" at 20 s, the
customer does not know (no detail); "For which time period?" at 30 s, the customer
gives the period (one detail); a query of Case with no rows at 40 s; one with 5 rows at
50 s (the first useful query); the gold at 60 s, the customer stops.
"""

from __future__ import annotations

import csv
import io
import json

import pytest

from crm_tui.study.results.dialogue import Turn, with_agent_dialogue
from crm_tui.study.results.render import TURN_ITEMS_TITLE, report_tables, to_csv, to_json
from crm_tui.study.results.replay import replay_item
from crm_tui.study.results.steps import Step, StepKind
from crm_tui.study.results.turn_modes import TurnItemRow
from crm_tui.study.store.db import StudyStore
from crm_tui.study.work.attempts import record_event
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.conversations import open_conversation, reply
from crm_tui.study.work.studies import list_studies
from tests.helpers.turn_modes_study import GOLD, one_conversation, study_report


def soql(store, attempt_id, query, rows):
    record_event(store, attempt_id, "soql_run", {"query": query, "rows": rows, "shown": []})


@pytest.fixture(scope="module")
def study_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("turn-traces") / "study.sqlite"
    clock = FakeClock()
    attempt = one_conversation(path, clock)
    with StudyStore.open(path, clock=clock) as store:
        open_conversation(store, attempt)
        clock.advance(10)
        soql(store, attempt, "SELECT Id FROM Account", 3)
        clock.advance(10)
        reply(store, attempt, "What's your name?")
        clock.advance(10)
        reply(store, attempt, "For which time period?")
        clock.advance(10)
        soql(store, attempt, "SELECT OwnerId FROM Case WHERE Status = 'Nope'", 0)
        clock.advance(10)
        soql(store, attempt, "SELECT OwnerId FROM Case", 5)
        clock.advance(10)
        assert reply(store, attempt, GOLD).done
    return path


@pytest.fixture(scope="module")
def report(study_file):
    return study_report(study_file)


def test_the_trace_counts_details_asked_and_the_first_useful_query(report):
    (one,) = report.process.traces
    assert (one.details_asked, one.first_useful_query) == (1, 50_000)
    assert (one.steps, one.queries) == (4, 3)  # the dialogue is no step of the search


def test_the_replay_shows_the_dialogue_among_the_queries(study_file):
    with StudyStore.open(study_file) as store, store.transaction() as session:
        (study,) = list_studies(store)
        (solve,) = replay_item(session, study, 0).solves
    assert [(step.kind, step.at // 1000) for step in solve.steps] == [
        ("customer", 0),
        ("query", 10),
        ("reply", 20),
        ("customer", 20),
        ("reply", 30),
        ("customer", 30),
        ("query", 40),
        ("query", 50),
        ("reply", 60),
        ("customer", 60),
        ("answer", 60),
    ]
    assert "in Q2 2023" in solve.steps[5].detail


def test_the_per_item_table_csv_and_json(report):
    assert report.turn_items == [TurnItemRow("HTU", 0, "humans", "ms", 1, 1.0, 50_000.0, 0, None)]
    (view,) = [v for v in report_tables(report) if v.title == TURN_ITEMS_TITLE]
    assert view.rows == [["HTU", "0", "humans", "1", "1", "50 s", "0", "—"]]
    rows = list(csv.DictReader(io.StringIO(to_csv(report))))
    items = {r["measure"]: r["value"] for r in rows if r["section"] == "turn_items"}
    assert items["median_details_asked"] == "1.0"
    assert items["median_first_useful_query_ms"] == "50000.0"
    data = json.loads(to_json(report))
    assert data["turn_items"][0]["median_details_asked"] == 1.0
    assert data["process"]["traces"][0]["first_useful_query"] == 50_000


def test_an_agents_customer_turns_follow_its_replies():
    steps = (
        Step(StepKind.QUERY, 1, "SELECT Id FROM Case", "Case", rows=2),
        Step(StepKind.ANSWER, 2, "Which period?"),
        Step(StepKind.ANSWER, 4, "005Ws000001xadBIAQ"),
    )
    dialogue = (
        Turn("customer", "Hi, I need help."),
        Turn("agent", "Which period?"),
        Turn("customer", "Q2 2023."),
        Turn("agent", "005Ws000001xadBIAQ"),
        Turn("customer", "Thanks ###STOP###"),
    )
    merged = with_agent_dialogue(steps, dialogue)
    assert [(s.kind, s.at) for s in merged] == [
        ("customer", 0),
        ("query", 1),
        ("answer", 2),
        ("customer", 2),
        ("answer", 4),
        ("customer", 4),
    ]

"""The study store itself (SQLite and PostgreSQL): migrations, append-only events; protocol
files; assignment."""

from __future__ import annotations

from collections import Counter

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError
from sqlmodel import SQLModel, select

from crm_tui.errors import CrmTuiError
from crm_tui.study.results import agent_runs as agents_store
from crm_tui.study.store import models
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.events import record_study_event
from crm_tui.study.store.migrations import LATEST_VERSION
from crm_tui.study.store.models import row_id
from crm_tui.study.work.assignment import Candidate, choose_items
from crm_tui.study.work.attempts import open_next, submit
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.protocol import load_preset, resolve_protocol
from crm_tui.study.work.studies import create_study, solve_only_preset


def columns(store: StudyStore) -> dict[str, list[str]]:
    """Each table's columns in order, as the database itself lists them."""
    inspector = inspect(store.engine)
    return {
        table: [column["name"] for column in inspector.get_columns(table)]
        for table in inspector.get_table_names()
    }


def one_routing_query_study(store: StudyStore) -> models.Study:
    return create_study(
        store,
        "s",
        solve_only_preset(1),
        instances=[
            {
                "idx": 0,
                "task": "case_routing",
                "query": "Who should take the case?",
                "answer": "005Wt0000000001AAA",
                "metadata": {"required": "- Today's date: 2023-01-15"},
                "reward_metric": "exact_match",
            }
        ],
        task_set_hash="sha256:test",
        org_fingerprint="local-0000",
    )


def test_migrating_a_version_1_store_keeps_rows_and_matches_the_models(blank_study_store_url):
    location = blank_study_store_url  # a new SQLite file, or an empty PostgreSQL database
    with StudyStore.open(location, FakeClock(), target_version=1) as old:
        assert "app_session" not in columns(old)["event"]
        with old.engine.begin() as conn:
            conn.exec_driver_sql(
                "INSERT INTO annotator VALUES (1, 'Old', 'Agent', 2, 'annotator', "
                "'2024-05-01 10:00:00.000000')"
            )
    with StudyStore.open(location, FakeClock()) as store:
        with store.engine.connect() as conn:
            versions = conn.exec_driver_sql("SELECT version FROM schema_version").scalars().all()
            assert sorted(versions) == list(range(1, LATEST_VERSION + 1))
            assert conn.exec_driver_sql("SELECT name FROM annotator").scalar() == "Old"
        migrated = columns(store)
    # Every table a model declares (models.py, agents_store.py), column for column.
    assert agents_store.AgentRun.__table__ in SQLModel.metadata.sorted_tables
    tables = SQLModel.metadata.sorted_tables
    assert {t.name: migrated.get(t.name) for t in tables} == {
        t.name: [c.name for c in t.columns] for t in tables
    }
    assert set(migrated) == {t.name for t in tables}


def test_a_newer_store_is_refused(study_store_url):
    StudyStore.open(study_store_url, FakeClock()).close()
    with StudyStore.open(study_store_url, FakeClock()) as store, store.engine.begin() as conn:
        conn.exec_driver_sql("INSERT INTO schema_version VALUES (99, '2030-01-01 00:00:00')")
    with pytest.raises(CrmTuiError, match="newer than this crm-tui"):
        StudyStore.open(study_store_url)


def test_a_non_study_file_is_refused(tmp_path):
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(CrmTuiError, match="not a crm-tui study file"):
        StudyStore.open(junk)


def test_event_log_is_append_only(study_store_url):
    with StudyStore.open(study_store_url, FakeClock()) as store:
        person = create_profile(store, "Eve", "Agent", 1)
        study = one_routing_query_study(store)
        record_study_event(store, row_id(study), row_id(person), "explore_started")
        for statement in ("UPDATE event SET kind = 'paused'", "DELETE FROM event"):
            with pytest.raises(IntegrityError, match="append-only"), store.transaction() as s:
                s.exec(text(statement))  # type: ignore[call-overload]
        with store.transaction() as s:
            assert s.exec(select(models.Event.kind)).all() == ["explore_started"]


DAY_MS = 86_400_000


def test_times_past_24_days_are_stored(study_store_url):
    """A machine up for a month (monotonic milliseconds past 2**31) and an attempt left open
    for a month both store their times: on PostgreSQL 32-bit columns refused them, and the
    event or the answer was lost."""
    clock = FakeClock(monotonic_ms=30 * DAY_MS)
    with StudyStore.open(study_store_url, clock) as store:
        person = create_profile(store, "Eve", "Agent", 1)
        study = one_routing_query_study(store)
        record_study_event(store, row_id(study), row_id(person), "explore_started")
        view = open_next(store, row_id(study), row_id(person))
        assert view is not None
        clock.advance(ms=30 * DAY_MS)
        submit(store, view.attempt_id, "005Wt0000000001AAA")
        with store.transaction() as s:
            (attempt,) = s.exec(select(models.Attempt)).all()
            assert attempt.wall_ms == 30 * DAY_MS
            assert max(s.exec(select(models.Event.monotonic_ms)).all()) == 60 * DAY_MS


@pytest.mark.parametrize(
    "text, message",
    [
        (
            'kind = "study-preset"\nname = "x"\n[[parts]]\nkind = "solve"\ntitle = "s"\nitems = 0\n',
            "parts[0].items: Input should be greater than or equal to 1",
        ),
        (
            'kind = "study-preset"\nname = "x"\n[[parts]]\nkind = "rate"\ntitle = "r"\n'
            'objects = ["Opportunity"]\n',
            "parts[0].objects: Value error, unknown object",
        ),
        (
            'kind = "study-preset"\nname = "x"\nseed = "one"\n[[parts]]\nkind = "solve"\n'
            'title = "s"\nitems = 1\n',
            "seed: Input should be a valid integer",
        ),
        ('kind = "study-preset"\nname = "x"\nparts = [\n', "not valid TOML"),
        (
            'kind = "study-preset"\nname = "x"\ncolour = 1\n[[parts]]\nkind = "solve"\n'
            'title = "s"\nitems = 1\n',
            "colour: Extra inputs are not permitted",
        ),
    ],
)
def test_bad_preset_names_file_and_key(tmp_path, text, message):
    path = tmp_path / "mine.toml"
    path.write_text(text)
    with pytest.raises(CrmTuiError, match="mine.toml") as error:
        load_preset(path)
    assert message in str(error.value)


def test_bad_questionnaire_next_to_a_preset_is_named(tmp_path):
    (tmp_path / "scale.toml").write_text(
        (load_preset("paper-expert-study")[1].parent / "realism.toml")
        .read_text()
        .replace("level = 4", "level = 7")
    )
    (tmp_path / "p.toml").write_text(
        'kind = "study-preset"\nname = "p"\nquestionnaire = '
        '"scale"\n[[parts]]\nkind = "solve"\ntitle = "s"\nitems = 1\n'
    )
    preset, path = load_preset(tmp_path / "p.toml")
    with pytest.raises(CrmTuiError, match=r"scale.toml: levels: .*1, 2, 3, 4, 5"):
        resolve_protocol(preset, path)


def test_bundled_protocols_load():
    preset, path = load_preset("paper-expert-study")
    protocol = resolve_protocol(preset, path)
    assert [p.kind for p in protocol.parts] == ["explore", "solve", "rate"]
    assert (preset.solve.items, preset.solve.distinct_families) == (5, True)
    assert [lv.label for lv in protocol.questionnaire.levels] == [
        "Very Unrealistic",
        "Unrealistic",
        "Neutral",
        "Realistic",
        "Very Realistic",
    ]
    assert protocol.questionnaire.dont_know.level == 0
    assert {
        "wrong_gold",
        "ambiguous_query",
        "unanswerable",
        "needs_outside_info",
        "typo_format",
        "other",
    } == {c.key for c in protocol.taxonomy.categories}
    assert len(protocol.rate.objects) == 16


def _simulate(
    n_items: int,
    families: int,
    annotators: int,
    per_person: int,
    overlap: int,
    distinct: bool,
    seed: int = 3,
) -> dict[str, list[int]]:
    counts: Counter[int] = Counter()
    queues = {}
    for a in range(annotators):
        candidates = [
            Candidate(i, f"f{i % families}", counts[i])
            for i in range(n_items)
            if counts[i] < overlap
        ]
        queues[f"ann{a}"] = choose_items(candidates, per_person, f"{seed}/ann{a}", distinct)
        counts.update(queues[f"ann{a}"])
    return queues


def test_assignment_is_seeded_least_annotated_first_and_capped():
    queues = _simulate(
        n_items=20, families=4, annotators=6, per_person=5, overlap=2, distinct=False
    )
    assert queues == _simulate(20, 4, 6, 5, 2, False)  # same seed, same queues
    assert queues != _simulate(20, 4, 6, 5, 2, False, seed=4)
    assert len(set(map(tuple, queues.values()))) == 6  # everyone has their own order
    counts = Counter(i for q in queues.values() for i in q)
    assert max(counts.values()) == 2  # overlap cap
    first_four = [i for name in ("ann0", "ann1", "ann2", "ann3") for i in queues[name]]
    assert sorted(first_four) == list(range(20))  # every item once before any twice
    assert all(counts[i] == 1 or counts[i] == 2 for i in range(20))


def test_assignment_distinct_families():
    queues = _simulate(
        n_items=90, families=9, annotators=10, per_person=5, overlap=1, distinct=True
    )
    for queue in queues.values():
        assert len(queue) == 5 and len({i % 9 for i in queue}) == 5
    assert len({i for q in queues.values() for i in q}) == 50

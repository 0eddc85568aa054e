"""The study service: one rule for picking the study, plain frozen data out, every call on
one writer thread in the order made, and results for coordinators only."""

from __future__ import annotations

import asyncio
import dataclasses
import threading

import pytest
from sqlmodel import SQLModel, select

from crm_tui.cli import main
from crm_tui.errors import CrmTuiError
from crm_tui.study.service import RESULTS_ARE_FOR_COORDINATORS, StudyService
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Event
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.studies import create_study, solve_only_preset
from tests.helpers.routing_items import ORG, instances


def add_study(path, name: str, org: str = ORG) -> None:
    with StudyStore.open(path, FakeClock()) as store:
        create_study(
            store,
            name,
            solve_only_preset(2),
            instances=instances(org),
            task_set_hash="sha256:test",
            org_fingerprint=org,
        )


@pytest.fixture
def study_file(study_store_url):
    """Studies "first" and "second" of ORG, then "other" of another org: in a SQLite file,
    then in a PostgreSQL database (tests/study/conftest.py)."""
    path = study_store_url
    add_study(path, "first")
    add_study(path, "second")
    add_study(path, "other", org="local-ffff")
    with StudyStore.open(path) as store:
        create_profile(store, "Ana", "Customer Service Agent", 3)
        create_profile(store, "Abe", "Study lead", 12, mode="coordinator")
    return path


def picked(path, **rule) -> str:
    with StudyService.open(path, **rule) as service:
        return service.study.name


def test_the_one_rule_picks_by_name_else_the_newest_of_the_org(study_file):
    assert picked(study_file) == "other"  # no org: any study in the file
    assert picked(study_file, org_fingerprint=ORG) == "second"
    assert picked(study_file, name="first", org_fingerprint=ORG) == "first"
    with pytest.raises(CrmTuiError, match=r"holds no study 'other' for this org \(local-0000\)"):
        picked(study_file, name="other", org_fingerprint=ORG)
    with pytest.raises(CrmTuiError, match="holds no study for this org .*`crm-tui study create`"):
        picked(study_file, org_fingerprint="local-1234")


def test_a_study_of_another_org_or_none_for_a_live_org_says_what_to_do(study_file):
    # "other" is in the file, for another org: say which
    with pytest.raises(CrmTuiError) as caught:
        picked(study_file, name="other", org_fingerprint=ORG)
    assert "'other' is a study of org local-ffff" in str(caught.value)
    # `crm-tui --salesforce`: `study create` alone cannot make a study for a live org
    live = "salesforce-00D000000000001AAA@example.my.salesforce.com"
    for rule in ({}, {"name": "all9"}):
        with pytest.raises(CrmTuiError) as caught:
            picked(study_file, org_fingerprint=live, **rule)
        message = str(caught.value)
        assert "tasks fetch-crmarena" in message and "study create NAME --tasks" in message


def test_the_old_command_names_still_work_and_say_the_new_one(study_file, capsys):
    main(["results", "--db", str(study_file), "--format", "json"])
    new = capsys.readouterr()
    main(["report", "--db", str(study_file), "--format", "json"])
    old = capsys.readouterr()
    assert old.out == new.out and new.err == ""
    assert "'report' is now 'results'" in old.err
    main(["--help"])
    commands = capsys.readouterr().out.split("Commands:")[1]
    listed = {line.split()[0] for line in commands.splitlines() if line.strip()}
    assert {"results", "web"} <= listed and not {"report", "serve"} & listed


def test_looking_for_a_study_never_makes_a_file(tmp_path):
    missing = tmp_path / "nowhere.sqlite"
    with pytest.raises(CrmTuiError, match="No study file at"):
        StudyService.open(missing)
    assert not missing.exists()


def test_report_and_status_commands_use_the_same_rule(study_file, capsys):
    main(["results", "--db", str(study_file), "--format", "json"])
    assert '"study": "other"' in capsys.readouterr().out  # the newest, as the app picks
    main(["study", "status", "--db", str(study_file), "--study", "first"])
    out = capsys.readouterr().out
    assert out.startswith("first (custom)") and "second" not in out
    for command in (["results"], ["study", "status"]):
        with pytest.raises(SystemExit):
            main([*command, "--db", str(study_file), "--study", "nope"])
        assert "holds no study 'nope'" in capsys.readouterr().err


def plain(value: object) -> bool:
    """Whether `value` holds no table row anywhere inside."""
    if isinstance(value, SQLModel):
        return False
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        params = getattr(value, "__dataclass_params__", None)
        return bool(params and params.frozen) and all(
            plain(getattr(value, f.name)) for f in dataclasses.fields(value)
        )
    if isinstance(value, dict):
        return all(plain(k) and plain(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return all(plain(v) for v in value)
    return True


def test_calls_hand_out_plain_frozen_data(study_file):
    with StudyService.open(study_file, name="first") as service:
        ana, abe = sorted(service.profiles(), key=lambda p: p.name != "Ana")
        view = service.open_next(ana.id)
        assert view is not None
        service.record_event(view.attempt_id, "paused")
        flag = service.flag_item(ana.id, view.item.item_id, "wrong_gold", "hm")
        results = [
            service.study,
            service.profiles(),
            service.progress(ana.id),
            service.summary(),
            view,
            service.elapsed(view.attempt_id),
            flag,
            service.audit_items(abe.id),
            service.submit_answer(view.attempt_id, None, confidence=3),
        ]
        assert all(plain(r) for r in results)
        assert (flag.annotator, flag.category, flag.comment) == ("Ana", "wrong_gold", "hm")
        with pytest.raises(dataclasses.FrozenInstanceError):
            service.study.name = "renamed"  # type: ignore[misc]


def test_every_call_runs_on_the_one_writer_in_order(study_file):
    with StudyService.open(study_file, name="first") as service:
        ana = next(p for p in service.profiles() if p.name == "Ana")
        view = service.open_next(ana.id)
        assert view is not None
        threads: list[str] = []
        kinds = ["paused", "resumed", "focus_lost", "focus_regained"] * 5

        def record(kind: str) -> None:
            threads.append(threading.current_thread().name)
            service.record_event(view.attempt_id, kind)  # on the writer already: at once

        futures = [service.submit(record, kind) for kind in kinds]
        service.flush().result()
        assert all(f.done() for f in futures)
        assert {name.split("_")[0] for name in threads} == {"study-writer"}
        assert service.summary().attempts["in_progress"] == 1

        async def from_a_loop() -> int | None:  # the app's way: awaited, never blocking
            return await service.run(service.unfinished_attempt, ana.id)

        assert asyncio.run(from_a_loop()) == view.attempt_id
    with StudyStore.open(study_file) as store, store.transaction() as session:
        written = session.exec(
            select(Event.kind).where(Event.attempt_id == view.attempt_id).order_by(Event.id)
        ).all()
    assert list(written) == ["opened", *kinds]


def test_results_are_for_coordinators_only(study_file):
    with StudyService.open(study_file, name="first") as service:
        ana, abe = sorted(service.profiles(), key=lambda p: p.name != "Ana")
        for who in (None, ana.id):
            with pytest.raises(CrmTuiError) as refused:
                service.report_for(who)
            assert str(refused.value) == RESULTS_ARE_FOR_COORDINATORS
        assert service.report_for(abe.id).study == "first"
        assert service.report().study == "first"  # the file holder's (crm-tui results)

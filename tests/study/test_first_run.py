"""First run: a newcomer's `crm-tui` makes org, task set and practice study by itself."""

from __future__ import annotations

import pytest
from sqlmodel import select

from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Attempt
from crm_tui.study.work.first_run import DEFAULT_STUDY, ensure_defaults
from crm_tui.study.work.protocol import load_preset
from crm_tui.study.work.studies import create_study, list_studies
from crm_tui.tasks.taskset import load_taskset
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.study.home import HomeScreen
from crm_tui.tui.study.profile import ProfileScreen
from crm_tui.tui.study.solve import SolveScreen
from tests.helpers.pilot import settle, wait_for
from tests.helpers.study_on_org import create_profile


@pytest.fixture(scope="module")
def first_run(tmp_path_factory):
    home = tmp_path_factory.mktemp("home")
    paths = home / "orgs" / "default.sqlite", home / "tasks" / "default.json", home / "study.sqlite"
    steps: list[str] = []
    made = ensure_defaults(*paths, progress=lambda fraction, label: steps.append(label))
    return paths, made, steps


def test_makes_org_task_set_and_study_once(first_run):
    (org, tasks, study), made, steps = first_run
    assert [m.split()[0] for m in made] == ["org", "task", "study"]
    assert steps[-1] == "ready"
    assert len(load_taskset(tasks)) == 1170
    with StudyStore.open(study) as store:
        studies = list_studies(store)
    assert [s.name for s in studies] == [DEFAULT_STUDY]
    assert studies[0].preset == "paper-expert-study"
    # A second start makes nothing new.
    assert ensure_defaults(org, tasks, study) == []


async def test_app_opens_on_the_profile_screen(first_run):
    (org, _, study), _, _ = first_run
    app = create_app(Launch(org_path=org, study=study))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ProfileScreen))


async def test_a_study_for_another_org_is_not_opened(first_run, small_org_path):
    (_, _, study), _, _ = first_run
    app = create_app(Launch(org_path=small_org_path, study=study))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)  # the worker that tries to open the study has ended
        assert not isinstance(app.screen, ProfileScreen)
        assert app.service is None


async def test_a_newcomer_reaches_a_first_solved_query(first_run, tmp_path, monkeypatch):
    """Only what the screen offers: make a profile, press s, answer, submit, confidence."""
    (org, _, study), _, _ = first_run
    own_study = tmp_path / "study.sqlite"  # the module's study file stays untouched
    own_study.write_bytes(study.read_bytes())
    app = create_app(Launch(org_path=org, study=own_study))
    async with app.run_test(size=(120, 40)) as pilot:
        await create_profile(pilot)
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("s")
        await settle(pilot)
        assert isinstance(app.screen, SolveScreen)
        await pilot.press("f6", "ctrl+s")  # the explicit "None" fits every answer type
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
    with StudyStore.open(own_study) as store, store.transaction() as db:
        attempt = db.exec(select(Attempt)).one()
    assert (attempt.status, attempt.answer_raw, attempt.confidence) == ("submitted", "None", 3)
    assert attempt.score in (0.0, 1.0) and attempt.active_ms is not None


async def test_a_named_study_is_opened_and_an_unknown_one_is_said(first_run, tmp_path):
    (org, tasks, study), _, _ = first_run
    own_study = tmp_path / "study.sqlite"
    own_study.write_bytes(study.read_bytes())
    with StudyStore.open(own_study) as store:
        taskset = load_taskset(tasks)
        preset, preset_path = load_preset("paper-expert-study")
        create_study(
            store,
            "Main study",
            preset,
            preset_path=preset_path,
            instances=[i.to_row() for i in taskset.instances],
            task_set_hash=taskset.content_hash,
            org_fingerprint=taskset.fingerprint,
        )
    for name, expected in ((DEFAULT_STUDY, DEFAULT_STUDY), (None, "Main study")):
        app = create_app(Launch(org_path=org, study=own_study, study_name=name))
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            assert app.service.study.name == expected
    app = create_app(Launch(org_path=org, study=own_study, study_name="Nope"))
    said: list[str] = []
    app.notify = lambda message, **kw: said.append(message)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.service is None and "no study 'Nope' for this org" in said[0]

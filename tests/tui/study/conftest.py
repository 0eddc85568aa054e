"""Fixtures of the study-screen tests: a paper-preset study on the small generated org,
crafted from real records of that org, and the app on it with a FakeClock."""

from __future__ import annotations

import pytest

from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.store.db import StudyStore
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.profiles import create_profile
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.study.study_app import StudyApp
from tests.helpers.study_pilot import create_crafted_study


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def study_path(tmp_path, small_org_path, clock):
    """A study file holding the paper preset on crafted instances of the small org."""
    path = tmp_path / "study.sqlite"
    with OrgStore.open(small_org_path) as org, StudyStore.open(path, clock) as store:
        create_crafted_study(store, org)
    return path


@pytest.fixture
def make_app(small_org_path, study_path, clock):
    def make() -> StudyApp:
        app = create_app(Launch(org_path=small_org_path, study=study_path, study_clock=clock))
        assert isinstance(app, StudyApp)
        return app

    return make


@pytest.fixture
def dana(study_path, clock) -> None:
    """One annotator profile, Dana, to pick on the first screen."""
    with StudyStore.open(study_path, clock) as store:
        create_profile(store, "Dana", "Customer Service Associate", 6)


@pytest.fixture(scope="session")
def b2b_org_path(tmp_path_factory):
    """A small B2B org, made once for every sales solve test."""
    from crm_tui.org.generate.build_file import generate

    path = tmp_path_factory.mktemp("b2b-solve") / "org.db"
    generate(path, seed=2, scale=0.2, kind="b2b")
    return path


@pytest.fixture(scope="session")
def sales_items(b2b_org_path) -> list[dict]:
    """Ten items of each sales family on that org, each pinned to it."""
    from crm_tui.tasks.sales_families import generate_sales_items

    with OrgStore.open(b2b_org_path) as org:
        items = generate_sales_items(org.conn, 2, 10)
        return [item | {"idx": 0, "crm_tui": {"org": org.fingerprint}} for item in items]

"""The first look at a study file (`first_look`, stdlib sqlite3, before the study store
loads) shows what the store itself would: the study `StudyService.open` picks and the
profiles `pickable_profiles` lists; where it cannot be sure, it says nothing (None)."""

from __future__ import annotations

import sqlite3

import pytest

from crm_tui.errors import CrmTuiError
from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.first_look import FirstLook, first_look
from crm_tui.study.service import StudyService
from crm_tui.study.store.db import StudyStore
from crm_tui.study.work.invitations import invite
from crm_tui.study.work.modes import Mode
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.protocol import load_preset
from crm_tui.study.work.studies import create_study
from tests.helpers.study_pilot import crafted_instances


@pytest.fixture
def study_file(tmp_path, small_org_path):
    """Two studies of the small org, one of another org, and profiles of every mode."""
    path = tmp_path / "study.sqlite"
    preset, preset_path = load_preset("paper-expert-study")
    with OrgStore.open(small_org_path) as org, StudyStore.open(path) as store:
        for name, fingerprint in (
            ("older", org.fingerprint),
            ("newer", org.fingerprint),
            ("elsewhere", "sha256:another-org"),
        ):
            instances = crafted_instances(org)
            for instance in instances:
                instance["crm_tui"]["org"] = fingerprint
            create_study(
                store,
                name,
                preset,
                instances=instances,
                task_set_hash="sha256:crafted",
                org_fingerprint=fingerprint,
                preset_path=preset_path,
            )
        create_profile(store, "Zoe", "Support Agent", 2)
        create_profile(store, "Ana", "Customer Service Associate", 6.5)
        create_profile(store, "Cleo", "Study lead", 9, Mode.COORDINATOR)
        create_profile(store, "Abe", "QA Lead", 4, Mode.AUDITOR)
    return path


def what_the_store_shows(path, name, fingerprint) -> FirstLook:
    with StudyService.open(
        path, name=name, org_fingerprint=fingerprint, person_session=True
    ) as service:
        service.codes_required()
        return FirstLook(service.study.name, tuple(service.pickable_profiles()))


@pytest.mark.parametrize("name", [None, "older", "newer"])
def test_the_first_look_shows_what_the_store_shows(study_file, small_org, name):
    looked = first_look(study_file, name, small_org.fingerprint)
    assert looked is not None
    assert looked == what_the_store_shows(study_file, name, small_org.fingerprint)
    assert [p.name for p in looked.profiles] == ["Ana", "Zoe"]  # annotators only, by name
    assert looked.study_name == (name or "newer")


@pytest.mark.parametrize("name", ["elsewhere", "no such study"])
def test_a_study_the_store_would_not_open_gets_no_first_look(study_file, small_org, name):
    with pytest.raises(CrmTuiError):
        what_the_store_shows(study_file, name, small_org.fingerprint)
    assert first_look(study_file, name, small_org.fingerprint) is None


def test_an_invited_file_gets_no_first_look(study_file, small_org):
    """It starts on the invitation code, which only the store can check."""
    with StudyStore.open(study_file) as store:
        invite(store, "Ivy", Mode.ANNOTATOR)
    assert first_look(study_file, None, small_org.fingerprint) is None


def test_what_is_not_a_local_study_file_gets_no_first_look(tmp_path, small_org):
    fingerprint = small_org.fingerprint
    not_sqlite = tmp_path / "notes.sqlite"
    not_sqlite.write_text("not a database\n" * 100)
    other_database = tmp_path / "other.sqlite"
    with sqlite3.connect(other_database) as connection:
        connection.execute("CREATE TABLE study (name TEXT)")
    connection.close()
    for path in (
        "postgresql://someone:secret@127.0.0.1:1/study",
        tmp_path / "missing.sqlite",
        tmp_path,
        not_sqlite,
        other_database,
    ):
        assert first_look(path, None, fingerprint) is None, path
    assert not (tmp_path / "missing.sqlite").exists()  # looking made no file


def test_a_live_salesforce_org_gets_no_first_look(study_file):
    assert first_look(study_file, None, "salesforce-00DLc0000000001") is None


def test_the_first_look_changes_nothing_in_the_file(study_file, small_org):
    before = study_file.read_bytes()
    assert first_look(study_file, None, small_org.fingerprint) is not None
    assert study_file.read_bytes() == before

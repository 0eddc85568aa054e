"""The app's launch settings: built once from the command line, in one frozen value."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from crm_tui.cli.main import code_source
from crm_tui.paths import CODE_SOURCE_VARIABLE
from crm_tui.tui.launch import Launch


def test_a_browser_tabs_address_reaches_the_launch_and_a_terminal_is_the_default(monkeypatch):
    monkeypatch.delenv(CODE_SOURCE_VARIABLE, raising=False)
    assert code_source().startswith("terminal:")  # this terminal's user and machine
    monkeypatch.setenv(CODE_SOURCE_VARIABLE, "browser 10.0.0.7")
    assert code_source() == "browser 10.0.0.7"


def test_a_study_url_stays_text_and_a_file_becomes_a_path():
    url = "postgresql://ana@db.example.org/study"
    assert Launch(study=url).study == url
    launch = Launch(org_path="org.sqlite", study="study.sqlite")  # type: ignore[arg-type]
    assert launch.study == Path("study.sqlite") and launch.org_path == Path("org.sqlite")


def test_launch_settings_cannot_change_once_built():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Launch().study_name = "other"  # type: ignore[misc]

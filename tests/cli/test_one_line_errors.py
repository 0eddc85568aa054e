"""Inputs out of any sane range, or not text at all, get one line naming what is wrong and
a non-zero exit: never a traceback (numbers past what a date, a store or a clock holds;
report definitions that are not UTF-8, nest too deeply or are not files)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from crm_tui.org.store.orgstore import OrgStore
from tests.cli.test_study_exchange import new_study
from tests.helpers.cli import fails
from tests.helpers.paths import CRMARENA_TASKS
from tests.helpers.soql_org import build_tiny_org

COUNT = 'name = "x"\nobject = "Case"\nsummaries = ["COUNT"]\n'


@pytest.fixture
def org(tmp_path) -> Path:
    return build_tiny_org(tmp_path / "org.sqlite")


def _range(text: str) -> str:
    return COUNT + f'[[date_ranges]]\nfield = "CreatedDate"\nrange = "{text}"\n'


DEFINITIONS = {
    "not-utf-8": ("x.toml", b'name = "x\xff"\nobject = "Case"\n', "UTF-8"),
    "deep-toml": ("x.toml", ("a = " + "[" * 100_000 + "]" * 100_000).encode(), "nested"),
    "deep-json": ("x.json", ("[" * 100_000 + "]" * 100_000).encode(), "nested"),
    "last-n-days-huge": ("x.toml", _range("LAST_N_DAYS:999999999999").encode(), "LAST_N_DAYS"),
    "next-n-years-huge": ("x.toml", _range("NEXT_N_YEARS:99999").encode(), "NEXT_N_YEARS"),
    "n-weeks-ago-huge": ("x.toml", _range("N_WEEKS_AGO:9" + "9" * 30).encode(), "N_WEEKS_AGO"),
}


@pytest.mark.parametrize("name", list(DEFINITIONS))
def test_org_report_on_bad_definitions_gives_one_line(tmp_path, capsys, org, name):
    file_name, data, words = DEFINITIONS[name]
    path = tmp_path / file_name
    path.write_bytes(data)
    line = fails(capsys, "org", "report", path, "--org", org)
    assert words in line, line


def test_org_report_reads_only_regular_files(tmp_path, capsys, org):
    pipe = tmp_path / "pipe.toml"
    os.mkfifo(pipe)  # would hang a reader that opens it
    line = fails(capsys, "org", "report", pipe, "--org", org)
    assert "not a regular file" in line and str(pipe) in line
    big = tmp_path / "big.toml"
    with big.open("wb") as f:
        f.truncate(64 << 20)  # sparse: as /dev/zero, more than any definition holds
    line = fails(capsys, "org", "report", big, "--org", org)
    assert "larger than" in line


@pytest.mark.parametrize("today", ["9999-12-31", "0001-01-01"])
def test_org_report_at_the_calendars_ends_gives_an_answer_or_one_line(tmp_path, capsys, org, today):
    from crm_tui.cli import main

    path = tmp_path / "x.toml"
    path.write_text(_range("THIS_YEAR") if today.startswith("9") else _range("LAST_YEAR"))
    try:
        main(["org", "report", str(path), "--org", str(org), "--today", today])
    except SystemExit as exc:
        assert exc.code not in (0, None)
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err


STUDY_OPTIONS = {
    "items-10^20": (["--items", "100000000000000000000"], "items"),
    "time-limit-inf": (["--time-limit", "inf"], "time"),
    "time-limit-nan": (["--time-limit", "nan"], "time"),
    "seed-huge": (["--seed", "9" * 30], "seed"),
    "overlap-huge": (["--annotators-per-item", "9" * 30], "annotators_per_item"),
}


@pytest.mark.parametrize("name", list(STUDY_OPTIONS))
def test_study_create_with_out_of_range_numbers_gives_one_line(tmp_path, capsys, name):
    options, words = STUDY_OPTIONS[name]
    db = tmp_path / "study.sqlite"
    line = fails(capsys, "study", "create", "s1", "--tasks", CRMARENA_TASKS, "--db", db, *options)
    assert words in line, line
    assert not db.exists()


@pytest.mark.parametrize("expires", ["99999999999d", "9" * 40 + "w", "999999999m"])
def test_invite_with_an_expiry_past_the_calendar_gives_one_line(tmp_path, capsys, expires):
    db = tmp_path / "study.sqlite"
    new_study(db)
    line = fails(
        capsys,
        "study",
        "invite",
        "Rae Kim",
        "--role",
        "annotator",
        "--expires",
        expires,
        "--db",
        db,
    )
    assert "--expires" in line, line


def test_an_agent_file_of_an_empty_list_gives_one_line(tmp_path, capsys):
    path = tmp_path / "results_m_react_all.json"
    path.write_text("[]")
    db = tmp_path / "study.sqlite"
    line = fails(capsys, "agents", "import", path, "--task-set", CRMARENA_TASKS, "--db", db)
    assert str(path) in line, line


def test_an_empty_org_file_stays_untouched_by_a_bad_definition(tmp_path, capsys):
    path = tmp_path / "org.sqlite"
    with OrgStore.create(path) as store:
        store.finish()
    before = path.read_bytes()
    bad = tmp_path / "x.toml"
    bad.write_bytes(b"\xff")
    fails(capsys, "org", "report", bad, "--org", path)
    assert path.read_bytes() == before


def test_an_unforeseen_error_is_one_line_without_its_values(capsys, monkeypatch):
    """The last net: a database error's text holds the statement's values (a new
    invitation's salt and hash); the line names the error, never them."""
    import sqlite3

    from sqlalchemy.exc import IntegrityError

    import crm_tui.cli as cli_main
    from crm_tui.cli.main import cli as cli_group

    def broken(*args, **kwargs):
        raise IntegrityError(
            "INSERT INTO invitation (salt) VALUES (?)",
            ("SECRET-SALT",),
            sqlite3.IntegrityError("NOT NULL constraint failed: invitation.name"),
        )

    monkeypatch.setattr(cli_group, "main", broken)
    line = fails(capsys, "study", "status")
    assert "NOT NULL constraint failed" in line and "SECRET" not in line, line
    assert "CRM_TUI_TRACEBACK=1" in line
    monkeypatch.setenv("CRM_TUI_TRACEBACK", "1")
    with pytest.raises(IntegrityError):
        cli_main.main(["study", "status"])

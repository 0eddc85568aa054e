"""`crm-tui study invite`, `study revoke` and `study invitations` through click's runner:
the code printed once, listed never, and bad input refused in one line."""

from __future__ import annotations

import re
import stat

from click.testing import CliRunner

from crm_tui.cli.main import cli
from crm_tui.study.store.db import StudyStore
from crm_tui.study.work.invitations import BAD_CODE, redeem
from crm_tui.study.work.profiles import list_profiles
from crm_tui.study.work.studies import create_study, solve_only_preset
from tests.helpers.cli import fails, snapshot

CODE = re.compile(r"code: ([2-9A-HJ-NP-Z]{4}(?:-[2-9A-HJ-NP-Z]{4}){3})")


def run(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


def one_item_study(db) -> None:
    """Study "pilot" with one item (its gold: an Id) in the study file `db`."""
    with StudyStore.open(db) as store:
        create_study(
            store,
            "pilot",
            solve_only_preset(1),
            instances=[
                {
                    "idx": 1,
                    "task": "handle_time",
                    "query": "Which agent?",
                    "answer": "005Ws000001xZvdIAE",
                    "reward_metric": "exact_match",
                    "metadata": {"required": "", "optional": ""},
                }
            ],
            task_set_hash="sha256:x",
            org_fingerprint="local-x",
        )


def test_invite_prints_the_code_once_and_the_list_never_shows_it(tmp_path):
    db = tmp_path / "study.sqlite"
    one_item_study(db)
    code, out = run(
        "study", "invite", "Rae Kim", "--role", "coordinator", "--study", "pilot",
        "--job-role", "QA Lead", "--crm-years", 7, "--expires", "7d",
        "--url", "https://study.example:8000/", "--db", db,
    )  # fmt: skip
    assert code == 0, out
    (printed,) = CODE.findall(out)
    assert "invited 'Rae Kim' as coordinator" in out
    assert "url: https://study.example:8000/" in out
    with StudyStore.open(db) as store:
        rae = redeem(store, printed, "test")
        assert (rae.name, rae.mode, rae.role, rae.crm_years) == (
            "Rae Kim",
            "coordinator",
            "QA Lead",
            7,
        )
    assert stat.S_IMODE(db.stat().st_mode) == 0o600  # gold answers inside

    code, out = run("study", "invite", "Ana", "--role", "annotator", "--db", db)
    assert code == 0, out
    (ana_code,) = CODE.findall(out)
    code, out = run("study", "invitations", "--db", db)
    assert code == 0, out
    assert printed not in out and ana_code not in out
    assert re.search(r"^Ana\s+annotator\s+pending\s+-\s", out, re.M), out
    assert re.search(r"^Rae Kim\s+coordinator\s+used\s+pilot\s", out, re.M), out

    code, out = run("study", "revoke", "Ana", "--db", db)
    assert code == 0, out
    assert "revoked the code of 'Ana'" in out
    code, out = run("study", "invitations", "--db", db)
    assert re.search(r"^Ana\s+annotator\s+revoked\s", out, re.M), out
    with StudyStore.open(db) as store:
        try:
            redeem(store, ana_code, "test")
        except Exception as error:
            assert str(error) == BAD_CODE
        else:
            raise AssertionError("a revoked code opened its profile")


def test_invite_and_revoke_refuse_bad_input_in_one_line(tmp_path, capsys):
    db = tmp_path / "study.sqlite"
    assert run("study", "invite", "Ana", "--role", "annotator", "--db", db)[0] == 0
    before = snapshot(tmp_path)
    assert "--expires: 'soon' is not a duration" in fails(
        capsys, "study", "invite", "Bo", "--role", "annotator", "--expires", "soon", "--db", db
    )
    assert "--study: no study named 'nope'" in fails(
        capsys, "study", "invite", "Bo", "--role", "auditor", "--study", "nope", "--db", db
    )
    assert "has a code that still works" in fails(
        capsys, "study", "invite", "Ana", "--role", "annotator", "--db", db
    )
    assert "no profile named 'Nobody'" in fails(capsys, "study", "revoke", "Nobody", "--db", db)
    assert snapshot(tmp_path) == before  # refused: nothing changed
    with StudyStore.open(db) as store:
        assert [p.name for p in list_profiles(store)] == ["Ana"]


def test_invitations_on_a_file_without_any(tmp_path):
    db = tmp_path / "study.sqlite"
    StudyStore.open(db).close()
    code, out = run("study", "invitations", "--db", db)
    assert code == 0 and "no invitations in" in out


def test_a_saved_report_is_private(tmp_path):
    db, out = tmp_path / "study.sqlite", tmp_path / "reports" / "pilot.json"
    one_item_study(db)
    code, printed = run("results", "--study", "pilot", "--format", "json", "--out", out, "--db", db)
    assert code == 0, printed
    assert stat.S_IMODE(out.stat().st_mode) == 0o600  # it shows the gold answers


def test_the_root_command_takes_require_code():
    code, out = run("--help")
    assert code == 0 and "--require-code" in out

"""Property: any bad task set, agent result file or damaged study file gives one
line on stderr, a non-zero exit, and leaves every file as it was (no study file made)."""

from __future__ import annotations

import gc
import json
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from crm_tui.cli import main
from tests.helpers.cli import AGENT_FILE
from tests.helpers.fuzz import property_settings
from tests.helpers.paths import CRMARENA_TASKS

SETTINGS = property_settings(25)
NASTY = [
    "[" * 3000 + "]" * 3000,  # spliced in as raw JSON: nested too deep
    "1" + "0" * 30,
    "9" * 5000,
    "-1",
    '["a"]',
    '{"a": 1}',
    '"\\ud800"',
    "true",
    "1.5",
    '""',
    "null",
]
# Values each field can never take (so every file built here is bad).
BAD_TASK_FIELDS = {
    "idx": NASTY,
    "task": NASTY,
    "query": [v for v in NASTY if v != '""'] + ['""'],
    "metadata": NASTY,
    "reward_metric": NASTY,
}
BAD_AGENT_FIELDS = {
    "task_id": NASTY,
    "reward": [v for v in NASTY if v not in ("true", "1.5")] + ["1.5"],
    "agent_info": [v for v in NASTY if v != '{"a": 1}'],
}


def outcome(capsys, argv: list[str]) -> tuple[int, list[str]]:
    try:
        main(argv)
        code = 0
    except SystemExit as stop:
        code = 1 if stop.code is None else int(stop.code) if isinstance(stop.code, int) else 1
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    return code, err.strip().splitlines()


def files_in(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def spliced(rows: list[dict], row: int, key: str, raw: str) -> bytes:
    """The rows as a JSON array with `rows[row][key]` replaced by the raw JSON `raw`."""
    marker = "__SPLICE__"
    rows = [dict(r) for r in rows]
    rows[row % len(rows)][key] = marker
    return json.dumps(rows).replace(f'"{marker}"', raw).encode("utf-8", "surrogatepass")


@pytest.fixture(scope="module")
def task_rows():
    return json.loads(CRMARENA_TASKS.read_text(encoding="utf-8"))[:3]


@SETTINGS
@given(
    row=st.integers(0, 2),
    key=st.sampled_from(sorted(BAD_TASK_FIELDS)),
    pick=st.integers(0, 100),
    noise=st.one_of(st.none(), st.binary(min_size=1, max_size=200)),
)
def test_any_bad_task_set_is_one_line_and_changes_nothing(capsys, task_rows, row, key, pick, noise):
    choices = BAD_TASK_FIELDS[key]
    data = (
        noise if noise is not None else spliced(task_rows, row, key, choices[pick % len(choices)])
    )
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = folder / "tasks.json"
        path.write_bytes(data)
        before = files_in(folder)
        for argv in (
            ["tasks", "stats", str(path)],
            ["study", "create", "s", "--tasks", str(path), "--db", str(folder / "s.sqlite")],
        ):
            code, lines = outcome(capsys, argv)
            assert code != 0 and len(lines) == 1, (argv, lines)
        assert files_in(folder) == before


@pytest.fixture(scope="module")
def agent_records():
    return json.loads(AGENT_FILE.read_text(encoding="utf-8"))[:3]


@SETTINGS
@given(
    row=st.integers(0, 2),
    key=st.sampled_from(sorted(BAD_AGENT_FIELDS)),
    pick=st.integers(0, 100),
    noise=st.one_of(st.none(), st.binary(min_size=1, max_size=200)),
)
def test_any_bad_agent_result_file_is_one_line_and_changes_nothing(
    capsys, agent_records, row, key, pick, noise
):
    choices = BAD_AGENT_FIELDS[key]
    data = (
        noise
        if noise is not None
        else spliced(agent_records, row, key, choices[pick % len(choices)])
    )
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = folder / "results_gpt-4o_react_all.json"
        path.write_bytes(data)
        before = files_in(folder)
        argv = ["agents", "import", str(path), "--task-set", str(CRMARENA_TASKS)]
        code, lines = outcome(capsys, [*argv, "--db", str(folder / "s.sqlite")])
        assert code != 0 and len(lines) == 1, lines
        assert files_in(folder) == before


@pytest.fixture(scope="module")
def study_file(tmp_path_factory):
    db = tmp_path_factory.mktemp("study") / "study.sqlite"
    main(["study", "create", "s", "--tasks", str(CRMARENA_TASKS), "--db", str(db)])
    return db


@property_settings(20)
@given(offset=st.integers(0, 200_000), garbage=st.binary(min_size=1, max_size=4096))
@example(offset=83197, garbage=b"\x80")  # a schema name no longer UTF-8
def test_a_damaged_study_file_is_refused_in_one_line_or_read(capsys, study_file, offset, garbage):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        db = folder / "study.sqlite"
        shutil.copy(study_file, db)
        data = bytearray(db.read_bytes())
        at = offset % len(data)
        data[at : at + len(garbage)] = garbage
        db.write_bytes(bytes(data[: max(len(data), at + len(garbage))]))
        before = files_in(folder)
        for argv in (["study", "status", "--db", str(db)], ["results", "--db", str(db)]):
            code, lines = outcome(capsys, argv)
            if code != 0:  # refused: one line; a change SQLite cannot see may read fine
                assert len(lines) == 1, lines
                gc.collect()  # in one process, connections a traceback held are closed now
                assert files_in(folder) == before


def test_property_tests_draw_the_same_examples_every_run_unless_fuzzing():
    from hypothesis import settings

    from tests.helpers.fuzz import PROFILE

    default = settings.default
    assert default is not None
    assert PROFILE == "fuzz" or (default.derandomize and default.database is None)

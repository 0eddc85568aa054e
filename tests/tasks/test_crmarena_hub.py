"""`crm-tui tasks fetch-crmarena`: the real huggingface_hub client against a stand-in Hub on
127.0.0.1 (never the network), in the Hugging Face form of CRMArena's file."""

from __future__ import annotations

import json
import socket

import pytest

from crm_tui.cli import main
from crm_tui.tasks.crmarena_hub import FILENAME, REPO_ID
from crm_tui.tasks.taskset import load_taskset
from tests.helpers.cli import fails
from tests.helpers.hub_stand_in import hub_stand_in
from tests.helpers.paths import CRMARENA_TASKS, needs_crmarena

ROWS = [
    {
        "idx": 650,
        "task": "handle_time",
        "query": "Find the agent with the shortest handle time in Winter 2021.",
        "answer": "005Ws000001xSR9IAM",
        "reward_metric": "exact_match",
        "metadata": {"required": "## Today's date: 2023-12-21", "optional": ""},
    },
    {
        "idx": 1000,
        "task": "knowledge_qa",
        "query": "How long is the warranty on the trail shoes?",
        "answer": "Two years",
        "reward_metric": "fuzzy_match",
        "metadata": {"required": "", "optional": ""},
    },
]


@pytest.fixture
def hf_cache(tmp_path, monkeypatch):
    """A fresh Hugging Face cache, and no token of the person running the tests."""
    # The hub client reads HF_HOME once, at import: the command's --cache-dir follows
    # HF_HUB_CACHE at call time, which is what this sets.
    cache = tmp_path / "hf-cache"
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
    return cache


def _fetch(hub_url: str, out, *extra: str) -> None:
    main(["tasks", "fetch-crmarena", "--endpoint", hub_url, "--out", str(out), *extra])


def _hf_form(rows: list[dict]) -> bytes:
    return json.dumps(rows).encode()


def test_fetch_writes_a_validated_task_set(tmp_path, hf_cache, capsys):
    with hub_stand_in({(REPO_ID, "main", FILENAME): _hf_form(ROWS)}) as hub:
        _fetch(hub.url, tmp_path / "crmarena.json")
    written = load_taskset(tmp_path / "crmarena.json")
    assert [i.idx for i in written.instances] == [650, 1000]
    assert written.instances[0].answer == "005Ws000001xSR9IAM"
    assert any(
        r.startswith("GET /datasets/Salesforce/CRMArena/resolve/main/") for r in hub.requests
    )
    assert "2 valid instances in 2 families; wrote" in capsys.readouterr().out


def test_a_second_fetch_reuses_the_cached_file(tmp_path, hf_cache):
    with hub_stand_in({(REPO_ID, "main", FILENAME): _hf_form(ROWS)}) as hub:
        _fetch(hub.url, tmp_path / "a.json")
        _fetch(hub.url, tmp_path / "b.json")
    assert sum(r.startswith("GET ") for r in hub.requests) == 1  # the second only asks HEAD
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()


def test_a_pinned_revision_is_fetched(tmp_path, hf_cache):
    with hub_stand_in({(REPO_ID, "v1", FILENAME): _hf_form(ROWS[:1])}) as hub:
        _fetch(hub.url, tmp_path / "v1.json", "--revision", "v1")
    assert len(load_taskset(tmp_path / "v1.json")) == 1


@needs_crmarena
def test_fetch_of_crmarena_s_whole_file_in_hugging_face_form(tmp_path, hf_cache):
    """The real 1,170 queries, with `type` renamed `task` as the Hub release does."""
    rows = json.loads(CRMARENA_TASKS.read_text(encoding="utf-8"))
    for row in rows:
        row["task"] = row.pop("type")
    with hub_stand_in({(REPO_ID, "main", FILENAME): _hf_form(rows)}) as hub:
        _fetch(hub.url, tmp_path / "crmarena.json")
    fetched = load_taskset(tmp_path / "crmarena.json")
    assert len(fetched) == 1170 and len(fetched.by_task()) == 9


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize(
    ("files", "gated", "revision", "expected"),
    [
        ({(REPO_ID, "main", FILENAME): b"[]"}, set(), "v9", "no revision 'v9'"),
        ({(REPO_ID, "main", "other.json"): b"[]"}, set(), "main", f"no file {FILENAME!r}"),
        ({(REPO_ID, "main", FILENAME): b"[]"}, {REPO_ID}, "main", "asks for a login"),
        ({("someone/else", "main", FILENAME): b"[]"}, set(), "main", "no dataset"),
    ],
    ids=["revision", "file", "gated", "repository"],
)
def test_hub_refusals_are_one_line_and_write_nothing(
    tmp_path, hf_cache, capsys, files, gated, revision, expected
):
    with hub_stand_in(files) as hub:
        hub.gated |= gated
        line = fails(
            capsys,
            *("tasks", "fetch-crmarena", "--endpoint", hub.url, "--revision", revision),
            *("--out", tmp_path / "out.json"),
        )
    assert expected in line and f"{REPO_ID}/{FILENAME}@{revision}" in line
    assert not (tmp_path / "out.json").exists()


def test_an_unreachable_hub_says_how_to_go_on(tmp_path, hf_cache, capsys):
    url = f"http://127.0.0.1:{_free_port()}"
    line = fails(capsys, "tasks", "fetch-crmarena", "--endpoint", url, "--out", tmp_path / "o.json")
    assert "could not reach the Hugging Face Hub" in line and "tasks import FILE" in line
    assert not (tmp_path / "o.json").exists()


def test_a_bad_row_in_the_fetched_file_names_it_and_writes_nothing(tmp_path, hf_cache, capsys):
    bad = [dict(ROWS[0]), dict(ROWS[1], task="no_such_task")]
    with hub_stand_in({(REPO_ID, "main", FILENAME): _hf_form(bad)}) as hub:
        line = fails(
            capsys, "tasks", "fetch-crmarena", "--endpoint", hub.url, "--out", tmp_path / "o.json"
        )
    assert FILENAME in line and "row 1" in line and "'task'" in line
    assert not (tmp_path / "o.json").exists()


def test_an_existing_out_file_is_refused_before_any_download(tmp_path, hf_cache, capsys):
    (tmp_path / "o.json").write_text("keep me")
    with hub_stand_in({(REPO_ID, "main", FILENAME): _hf_form(ROWS)}) as hub:
        line = fails(
            capsys, "tasks", "fetch-crmarena", "--endpoint", hub.url, "--out", tmp_path / "o.json"
        )
    assert "o.json" in line and hub.requests == []
    assert (tmp_path / "o.json").read_text() == "keep me"


def test_with_the_hub_gone_the_cached_copy_is_used_and_said(tmp_path, hf_cache, capsys):
    with hub_stand_in({(REPO_ID, "main", FILENAME): _hf_form(ROWS)}) as hub:
        _fetch(hub.url, tmp_path / "online.json")
    capsys.readouterr()
    _fetch(hub.url, tmp_path / "offline.json")  # the stand-in has stopped
    assert "the Hub did not answer, so this is the cached copy" in capsys.readouterr().out
    assert (tmp_path / "offline.json").read_bytes() == (tmp_path / "online.json").read_bytes()

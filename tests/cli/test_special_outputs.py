"""`--out PATH --force` replaces a regular file or writes a new path, and nothing else: a
named pipe, a device node, a socket, or a symbolic link to one (or to nothing) is refused
in one line and left as it was."""

from __future__ import annotations

import os
import socket
import stat
from pathlib import Path

import pytest

from crm_tui.atomic import check_output_path, replace_file, write_text_atomically
from crm_tui.errors import CrmTuiError
from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.store.db import StudyStore
from tests.cli.test_study_exchange import new_study
from tests.helpers.cli import fails
from tests.helpers.paths import CRMARENA_TASKS

# A device node every Linux and macOS has, only ever reached through a link made in a
# temporary folder (the link is what a faulty writer would replace, never the node).
DEVICE = Path(os.devnull)


def _specials(folder: Path) -> dict[str, Path]:
    """A named pipe, a socket, links to them, a link to a device node and one to nothing."""
    fifo = folder / "pipe"
    os.mkfifo(fifo)
    sock_path = folder / "sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(sock_path))
    server.close()
    links = {"to-pipe": fifo, "to-device": DEVICE, "to-nothing": folder / "missing"}
    for name, target in links.items():
        (folder / name).symlink_to(target)
    return {name: folder / name for name in ["pipe", "sock", *links]}


def _kinds(paths: dict[str, Path]) -> dict[str, int]:
    return {name: os.lstat(path).st_mode for name, path in paths.items()}


@pytest.fixture
def specials(tmp_path) -> dict[str, Path]:
    folder = tmp_path / "specials"
    folder.mkdir()
    return _specials(folder)


def test_check_output_path_refuses_all_but_regular_files(specials, tmp_path):
    before = _kinds(specials)
    for name, path in specials.items():
        with pytest.raises(CrmTuiError, match="not a regular file") as caught:
            check_output_path(path, force=True)
        assert str(path) in str(caught.value), name
    assert _kinds(specials) == before
    regular = tmp_path / "file.json"
    regular.write_text("{}")
    check_output_path(regular, force=True)
    (tmp_path / "link.json").symlink_to(regular)
    check_output_path(tmp_path / "link.json", force=True)


def test_every_writer_refuses_them_at_the_last_moment(specials, tmp_path):
    """What the up-front check saw may change before the file is in place: the rename
    itself refuses too."""
    before = _kinds(specials)
    for path in specials.values():
        with pytest.raises(CrmTuiError, match="not a regular file"):
            write_text_atomically(path, "text")
        tmp = tmp_path / "new.tmp"
        tmp.write_text("x")
        with pytest.raises(CrmTuiError, match="not a regular file"):
            replace_file(tmp, path)
    assert _kinds(specials) == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    assert stat.S_ISFIFO(os.stat(specials["to-pipe"]).st_mode)


@pytest.fixture
def study(tmp_path) -> Path:
    path = tmp_path / "study.sqlite"
    new_study(path)
    return path


@pytest.fixture
def empty_org(tmp_path) -> Path:
    path = tmp_path / "org.sqlite"
    with OrgStore.create(path) as org:
        org.finish()
    return path


def _commands(study: Path, org: Path) -> dict[str, list[object]]:
    return {
        "org generate": ["org", "generate", "--scale", "0.05"],
        "tasks generate": ["tasks", "generate", "--org", org],
        "results": ["results", "--db", study, "--format", "md"],
        "study export": ["study", "export", "--profile", "Nobody", "--db", study],
    }


@pytest.mark.parametrize(
    "command", ["org generate", "tasks generate", "results", "study export", "tasks import"]
)
def test_commands_refuse_special_outputs_even_with_force(
    capsys, specials, study, empty_org, command
):
    if command == "tasks import":
        argv: list[object] = ["tasks", "import", CRMARENA_TASKS]
    else:
        argv = _commands(study, empty_org)[command]
    before = _kinds(specials)
    for path in specials.values():
        line = fails(capsys, *argv, "--out", path, "--force")
        assert "not a regular file" in line and str(path) in line, line
    assert _kinds(specials) == before


def test_a_study_file_that_is_a_pipe_is_refused(specials):
    with pytest.raises(CrmTuiError):
        StudyStore.open(specials["pipe"]).close()

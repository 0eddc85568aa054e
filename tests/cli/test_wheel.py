"""The installed wheel carries tasks/, annotations/ and the generator's data files: the app
needs no checkout."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from tests.helpers.paths import ROOT


def test_wheel_ships_task_families_protocols_and_generator_data(tmp_path):
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path / "dist"),
            str(ROOT),
        ],
        check=True,
    )
    wheel = next((tmp_path / "dist").glob("crm_tui-*.whl"))
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    probe = (
        "from crm_tui.paths import bundled_dir; from crm_tui.tasks.families import families;"
        "from crm_tui.study.work.protocol import load_preset;"
        "print(bundled_dir('tasks')); print(len(families()));"
        "print(load_preset('paper-expert-study')[0].name);"
        "from crm_tui.org.generate.datafile import DATA_DIR;"
        "from crm_tui.org.generate import agent_phrases, assortment, description_phrases, kbtexts;"
        "print(DATA_DIR); print(len(assortment.assortment().categories),"
        " len(kbtexts.kbtexts().policies), len(agent_phrases.agent_phrases().issues),"
        " len(description_phrases.description_phrases().issues), sep=',')"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        check=True,
        text=True,
        capture_output=True,
        env={"PYTHONPATH": str(site), "PATH": ""},
    ).stdout
    tasks_dir, n_families, preset, data_dir, data_counts = out.split()
    assert Path(tasks_dir) == site / "crm_tui" / "_data" / "tasks"
    assert (n_families, preset) == ("9", "paper-expert-study")
    assert Path(data_dir) == site / "crm_tui" / "org" / "generate" / "data"
    assert data_counts == "12,10,10,10"

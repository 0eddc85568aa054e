"""Tables piped or redirected keep their shape: rich folds at
80 columns when it sees no terminal, which split "monthly_trend_analysis" and "100. 0"."""

from __future__ import annotations

from crm_tui.cli import main
from crm_tui.org.store.orgstore import OrgStore
from crm_tui.tasks.generate import generate_taskset
from crm_tui.tasks.taskset import write_taskset


def test_tasks_stats_piped_is_as_wide_as_its_table(small_org_path, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    tasks = tmp_path / "tasks.json"
    with OrgStore.open(small_org_path) as org:
        write_taskset(generate_taskset(org, per_task=3, seed=1, allow_short=True), tasks)
    main(["tasks", "stats", str(tasks)])
    printed = capsys.readouterr().out
    assert "monthly_trend_analysis" in printed and "Service Analyst" in printed, printed

"""Results on a study that holds sales items (list golds, the sales families) beside a
service item: `crm-tui results` in every format, the results screen with its process
traces and a replay of a sales item, answered by two people and an imported agent run."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from textual.widgets import DataTable, TabbedContent

from crm_tui.cli import main
from crm_tui.org.generate.build_file import generate
from crm_tui.study.results.agent_files import read_agent_results
from crm_tui.study.results.agent_runs import import_agent_results
from crm_tui.study.service import StudyService
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import row_id
from crm_tui.study.work.attempts import open_next, submit
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.protocol import load_preset
from crm_tui.study.work.studies import create_study, list_studies, with_overrides
from crm_tui.tasks.taskset import Instance, load_taskset
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.study.replay_screen import ReplayScreen
from tests.helpers.crmarena_records import record, submitted, text_traj
from tests.helpers.pilot import settle
from tests.helpers.results_study import cells, coordinator, open_results

SALES = (
    "activity_priority",
    "lead_qualification",
    "wrong_stage_rectification",
    "sales_insight_mining",
    "sales_amount_understanding",
)


def joined(instance: Instance) -> str:
    return ", ".join(a for a in instance.answer_list or [] if a is not None) or "None"


def answer_of(person: str, item: Instance) -> str:
    """Ana answers the gold as written, Cat the same values in another order and wording
    (but a stage on the lead qualification), Ben a stage name (wrong on all but a
    wrong-stage item whose gold it is)."""
    if person == "Ben" or (person == "Cat" and item.task == "lead_qualification"):
        return "Qualification"
    if item.answer_list is None:
        return item.answer or "None"
    if person == "Cat":
        return " and ".join(reversed([a for a in item.answer_list if a is not None])) or "None"
    return joined(item)


@pytest.fixture(scope="module")
def sales_study(tmp_path_factory) -> tuple[Path, Path, dict[str, Instance]]:
    folder = tmp_path_factory.mktemp("sales-results")
    org, tasks, study = folder / "org.db", folder / "tasks.json", folder / "study.sqlite"
    generate(org, seed=2, scale=0.2, kind="b2b")
    main(["tasks", "generate", "--org", str(org), "--per-task", "1", "--seed", "2",
          "--out", str(tasks), "--allow-short"])  # fmt: skip
    taskset = load_taskset(tasks)
    chosen = {i.task: i for i in taskset.instances if i.task in (*SALES, "case_routing")}
    assert len(chosen) == len(SALES) + 1
    clock = FakeClock()
    preset, preset_path = load_preset("paper-expert-study")
    preset = with_overrides(
        preset, items=len(chosen), distinct_families=False, annotators_per_item=3
    )
    by_idx = {i.idx: i for i in chosen.values()}
    with StudyStore.open(study, clock=clock) as store:
        create_study(store, "sales", preset, preset_path=preset_path,
                     instances=[i.to_row() for i in chosen.values()],
                     task_set_hash=taskset.content_hash,
                     org_fingerprint=taskset.fingerprint or "")  # fmt: skip
        (made,) = list_studies(store)
        for name in ("Ana", "Ben", "Cat"):
            person = create_profile(store, name, "Sales Representative", 3)
            while (view := open_next(store, row_id(made), row_id(person))) is not None:
                clock.advance(seconds=60)
                submit(store, view.attempt_id, answer_of(name, by_idx[view.item.idx]))
        # an agent run: right on every item, each gold first shown by a query's output
        records = []
        for item in chosen.values():
            gold = item.answer_list if item.answer_list is not None else item.answer
            shown = joined(item) if item.answer_list is not None else str(item.answer)
            traj = text_traj(
                "<execute>SELECT Id FROM Opportunity LIMIT 5</execute>",
                f"Salesforce instance output: [{{'Id': '{shown}'}}]",
                f"<submit>{shown}</submit>",
            )
            records.append(record(item.idx, item.task, gold, 1, traj, submitted(shown)))
        agent_file = folder / "results_gpt-4o_react_all.json"
        agent_file.write_text(json.dumps(records), encoding="utf-8")
        import_agent_results(store, [read_agent_results(agent_file)], taskset)
        create_profile(store, "Abe", "Study lead", 12, mode="coordinator")
    return org, study, chosen


def test_results_in_every_format_on_a_study_with_sales_items(sales_study, tmp_path, capsys):
    _, study, chosen = sales_study
    for fmt in ("csv", "json", "md", "table"):
        out = tmp_path / f"report.{fmt}"
        main(["results", "--db", str(study), "--format", fmt, "--out", str(out)])
        assert out.read_text(encoding="utf-8").strip()
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    families = {row["family"] for row in data["families"]}
    assert {"AP", "LQ", "WSR", "SIM", "SAU", "NCR", "ALL"} <= families
    # Ana and Cat gave the same Ids in another order: one answer, right for both
    humans = {row["family"]: row["humans"] for row in data["families"]}
    assert humans["AP"]["accuracy"] == pytest.approx(2 / 3)
    assert humans["AP"]["agreement"] == pytest.approx(1 / 3)
    agreement = {row["family"]: row for row in data["statistics"]["agreement"]}
    assert agreement["AP"]["items"] == 1
    # two of three wrong on the lead qualification: a candidate bad gold, shown as text
    lq = chosen["lead_qualification"]
    (disputed,) = data["disputed"]
    assert (disputed["idx"], disputed["gold"]) == (lq.idx, joined(lq))
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "WSR" in md and "gpt-4o ReAct" in md


async def test_the_results_screen_replays_a_sales_item_with_its_list_gold(sales_study):
    org, study, chosen = sales_study
    priority = chosen["activity_priority"]
    with StudyService.open(study) as service:
        lead = coordinator(service)
        async with create_app(Launch(org_path=org)).run_test(size=(140, 45)) as pilot:
            screen = await open_results(pilot, service, lead)
            screen.query_one(TabbedContent).active = "process"
            await settle(pilot)
            traces = screen.query_one("#process-traces", DataTable)
            rows = cells(traces)
            assert {row[1] for row in rows} >= {"AP", "LQ", "WSR", "SIM", "SAU", "NCR"}
            # the agent saw each exact-match gold in a query's output before answering
            agent_ap = next(r for r in rows if r[0] == "gpt-4o ReAct" and r[1] == "AP")
            assert agent_ap[4] == "right"
            wrong = next(r for r in rows if r[0] == "humans" and r[1] == "AP" and r[4] != "right")
            assert wrong[4] == "never saw the answer"
            traces.focus()
            traces.move_cursor(row=rows.index(wrong))
            await pilot.press("p")
            await settle(pilot)
            replay = pilot.app.screen
            assert isinstance(replay, ReplayScreen)
            heading = str(replay.query_one("#replay-heading").render())
            assert f"Task {priority.idx} (AP) · gold: {joined(priority)}" in heading


def test_a_sales_gold_audited_and_corrected_to_a_list(sales_study, tmp_path, capsys):
    _, original, chosen = sales_study
    study = tmp_path / "study.sqlite"
    shutil.copy(original, study)
    lq = chosen["lead_qualification"]
    db = ["--as", "Abe", "--db", str(study)]
    main(["audit", "queue", *db])
    queue = capsys.readouterr().out
    assert f"{lq.idx}" in queue and "2 people agree" in queue and "['" not in queue
    with pytest.raises(SystemExit):
        main(["audit", "decide", str(lq.idx), "correct", "--gold", "Qualification",
              "--category", "wrong_gold", *db])  # fmt: skip
    assert "names no BANT factor" in capsys.readouterr().err
    main(["audit", "decide", str(lq.idx), "correct", "--gold", "Need and Budget",
          "--category", "wrong_gold", *db])  # fmt: skip
    assert "to ['Need', 'Budget']" in capsys.readouterr().out
    main(["audit", "version", *db])
    with StudyService.open(study) as service:
        taskset, _ = service.audited_task_set()
        comparison = service.gold_comparison()
    (corrected,) = [i for i in taskset.instances if i.idx == lq.idx]
    assert corrected.answer_list == ["Need", "Budget"]
    assert comparison is not None
    row = next(r for r in comparison.rows if r.family == "LQ")
    # before: Ana and the agent right; after: nobody names both factors
    assert row.humans == (pytest.approx(1 / 3), 0.0)
    assert row.agents["gpt-4o ReAct"] == (1.0, 0.0)

"""The results screen on a real study file: the numbers worked out by hand in conftest.py,
the report from the study service, for coordinators only."""

from __future__ import annotations

import math
import shutil
import sqlite3

from textual.widgets import DataTable, Static, TabbedContent
from textual_plotext import PlotextPlot

from crm_tui.study.service import StudyService
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.study.study_app import StudyApp
from tests.helpers.pilot import settle, wait_for
from tests.helpers.results_study import cells, column_labels, coordinator, open_results


def wilson(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def shown(interval: tuple[float, float]) -> str:
    return f"{interval[0] * 100:.1f}–{interval[1] * 100:.1f}"


async def test_side_by_side_shows_humans_and_agents_by_family(make_app, results):
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = await open_results(pilot, *results)
        table = screen.query_one("#results-families", DataTable)
        assert column_labels(table) == [
            "Family",
            "Items answered",
            "Answers",
            "Humans %",
            "95% CI",
            "Active s (median)",
            "claude-3.5-sonnet Function Calling %",
            "gpt-4o ReAct %",
        ]
        ncr, htu, overall = wilson(3, 4), wilson(2, 2), wilson(0.875 * 6, 6)
        assert cells(table) == [
            ["NCR", "2 of 2", "4", "75.0", shown(ncr), "90", "50.0 (n=2)", "83.3 (n=6)"],
            ["HTU", "1 of 1", "2", "100.0", shown(htu), "90", "—", "66.7 (n=3)"],
            ["ALL", "3 of 3", "6", "87.5", shown(overall), "90", "50.0 (n=2)", "75.0 (n=9)"],
        ]
        heading = str(screen.query_one("#results-heading", Static).render())
        assert "Study pilot" in heading and "2 annotator(s) · 2 agent(s)" in heading


async def test_chart_has_a_bar_series_per_participant(make_app, results):
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = await open_results(pilot, *results)
        chart = screen.query_one(PlotextPlot)
        drawn = chart.plt.build()
        for label in ("Humans", "gpt-4o ReAct", "claude-3.5-sonnet Function Calling"):
            assert label in drawn
        assert "NCR" in drawn and "HTU" in drawn and "ALL" in drawn


async def test_statistics_tab_plots_each_participant_with_intervals(make_app, results):
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = await open_results(pilot, *results)
        screen.query_one(TabbedContent).active = "statistics"
        await settle(pilot)
        drawn = screen.query_one("#statistics-chart", PlotextPlot).plt.build()
        for label in ("Humans", "gpt-4o ReAct", "claude-3.5-sonnet Function Calling"):
            assert label in drawn
        assert "95% intervals" in drawn
        titles = [str(t.render()) for t in screen.query_one("#statistics-body").query(Static)]
        assert any(t.startswith("Success with 95% intervals") for t in titles)
        assert any(t.startswith("Humans against each agent") for t in titles)
        assert any(t.startswith("Agreement on answers") for t in titles)
        success = screen.query_one("#statistics-body").query(DataTable).first()
        rows = {row[0]: row for row in cells(success)}
        assert rows["Humans"][1].startswith("75.0 (")  # NCR with its interval


async def test_realism_and_audit_tabs(make_app, results):
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = await open_results(pilot, *results)
        screen.query_one(TabbedContent).active = "realism"
        await settle(pilot)
        realism = screen.query_one("#realism-body").query(DataTable).first()
        rows = {row[0]: row for row in cells(realism)}
        # org: Ana 4, Ben 3; Case: Ana 5, Ben 2 -> one each; Realistic or better 50 %
        assert rows["org"][3:6] == ["1", "1", "0"] and rows["org"][-1] == "50.0"
        assert rows["Case"][2] == "1" and rows["Case"][5] == "1"
        screen.query_one(TabbedContent).active = "audit"
        await settle(pilot)
        flags = {
            row[0]: row[1:]
            for row in cells(screen.query_one("#audit-body").query(DataTable).first())
        }
        assert flags["Wrong gold answer"] == ["1", "1"]
        assert sum(int(flag[0]) for flag in flags.values()) == 1


async def test_empty_study_gets_a_helpful_message(make_app, empty_study):
    with StudyService.open(empty_study) as service:
        async with make_app().run_test(size=(120, 40)) as pilot:
            screen = await open_results(pilot, service, coordinator(service))
            message = str(screen.query_one("#results-message", Static).render())
            assert "no results yet" in message and "crm-tui agents import" in message
            assert not screen.query_one(TabbedContent).display


async def test_no_profile_chosen_sees_no_results(make_app, results):
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = await open_results(pilot, results[0], None)
        message = str(screen.query_one("#results-message", Static).render())
        assert "Results are for study coordinators" in message
        assert not screen.query_one(TabbedContent).display


async def test_missing_study_file_is_named(small_org_path, tmp_path):
    missing = tmp_path / "nowhere.sqlite"
    app = create_app(Launch(org_path=small_org_path, study=missing))
    assert isinstance(app, StudyApp)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: not app.study_opening)
        await pilot.press("f9")  # no study is open: no results either
        await settle(pilot)
        said = [n.message for n in app._notifications]
        assert str(missing) in said[0] and "No study is open" in said[1]
    assert not missing.exists()  # looking did not create it


async def test_f9_while_the_study_opens_says_so_not_that_there_is_none(
    small_org_path, results_study, tmp_path
):
    """Under load a person can press F9 before the study's worker has opened it: "no
    study is open" was then said of a study about to open."""
    path = tmp_path / "study.sqlite"
    shutil.copy(results_study, path)
    locker = sqlite3.connect(path, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")  # the app's open waits for it (busy timeout)
    app = create_app(Launch(org_path=small_org_path, study=path))
    assert isinstance(app, StudyApp)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for(pilot, lambda: app.study_opening)
            await pilot.press("f9")
            await pilot.pause()
            said = [n.message for n in app._notifications]
            assert said == ["The study is still opening; press F9 again in a moment."]
            locker.execute("COMMIT")  # then it opens: a study of another org, so none here
            await wait_for(pilot, lambda: not app.study_opening)
            await pilot.press("f9")
            await settle(pilot)
            said = [n.message for n in app._notifications]
            assert "no study for this org" in said[1] and "No study is open" in said[2]
    finally:
        locker.close()


async def test_report_tables_show_brackets_as_text(make_app, results):
    # a DataTable reads a str cell as markup: "[paper]" vanished from the paper's rows
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = await open_results(pilot, *results)
        screen.query_one(TabbedContent).active = "humans-agents"
        await settle(pilot)
        success = screen.query_one("#humans-agents-body").query(DataTable).first()
        drawn = [success.render_line(y).text for y in range(success.size.height)]
        assert any("gpt-4o ReAct [paper]" in line for line in drawn), drawn
        titles = screen.query_one("#humans-agents-body").query(".results-title")
        assert "[paper]: the paper's" in str(titles.first().render())


async def test_x_shows_every_figure_with_the_exclusions_kept_in(make_app, results_study, tmp_path):
    path = tmp_path / "study.sqlite"
    shutil.copy(results_study, path)
    with StudyService.open(path) as service:
        service.exclude("Ben", "answered from a colleague's notes")
        async with make_app().run_test(size=(120, 40)) as pilot:
            screen = await open_results(pilot, service, coordinator(service))

            def heading() -> str:
                return str(screen.query_one("#results-heading", Static).render())

            assert "1 annotator(s)" in heading() and "exclusions left out" in heading()
            answers = cells(screen.query_one("#results-families", DataTable))[-1][2]
            await pilot.press("x")
            await wait_for(pilot, lambda: "exclusions kept in" in heading())
            assert "2 annotator(s)" in heading()
            kept = cells(screen.query_one("#results-families", DataTable))[-1][2]
            assert int(kept) > int(answers)
            await pilot.press("x")
            await wait_for(pilot, lambda: "exclusions left out" in heading())

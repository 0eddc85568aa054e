"""The report builder as a person meets it: at 80x24 every box is in sight and wide enough
to read what is typed; changing the report type keeps the parts (or asks, with undo); a
typed value is never dropped; a part naming a field the report does not have is refused."""

from __future__ import annotations

from textual.widgets import Input, Select

from crm_tui.tui.browser.screens.report_builder import ReportBuilderScreen
from tests.helpers.narrow import NARROW
from tests.helpers.pilot import settle
from tests.tui.browser.test_reports import type_text


async def open_builder(pilot) -> ReportBuilderScreen:
    await settle(pilot)
    await pilot.press("r")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, ReportBuilderScreen)
    return screen


async def test_at_80x24_every_box_of_the_builder_is_in_sight_and_readable(app):
    async with app.run_test(size=NARROW) as pilot:
        screen = await open_builder(pilot)
        width, height = NARROW
        for box in ("#report-type", "#report-part", "#report-field", "#report-how"):
            region = screen.query_one(box).region
            assert region.right <= width and region.bottom <= height, box
        for box in ("#report-field", "#report-value"):
            widget = screen.query_one(box, Input)
            assert widget.region.right <= width, box
            assert widget.content_size.width >= 20, box
        toml = screen.query_one("#report-toml")
        assert toml.region.width >= 30
        assert toml.region.bottom <= height - 1  # above the footer
        assert toml.content_size.height >= 5
        await type_text(pilot, "Status")
        await settle(pilot)
        field = screen.query_one("#report-field", Input)
        assert "Status" in "".join(s.text for s in field.render_line(0))


async def test_changing_the_report_type_keeps_the_parts_within_reach(app):
    """The parts do not vanish in silence: the screen says how many left with the old
    type, Ctrl+Z brings them back, and so does choosing the old type again."""
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_builder(pilot)
        await type_text(pilot, "Status")
        await pilot.press("enter")
        await settle(pilot)
        built = screen.definition
        assert built.groupings
        screen.query_one("#report-type", Select).value = "Account"
        await settle(pilot)
        assert screen.definition.object_name == "Account"
        said = " ".join(str(n.message) for n in app._notifications)
        assert "1 part" in said and "ctrl+z" in said.lower()
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert screen.definition == built
        screen.query_one("#report-type", Select).value = "Account"
        await settle(pilot)
        screen.query_one("#report-type", Select).value = "Case"
        await settle(pilot)
        assert screen.definition == built


async def choose_part(pilot, screen, kind: str) -> None:
    screen.query_one("#report-part").value = kind
    await settle(pilot)
    screen.query_one("#report-field", Input).focus()


async def test_a_filter_is_not_added_without_its_value(app):
    """Enter in the field box of a part that needs a value goes on to the value box
    instead of adding `Status =` with nothing after it; the typed field stays."""
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_builder(pilot)
        await choose_part(pilot, screen, "filter")
        await type_text(pilot, "Status")
        await pilot.press("enter")
        await settle(pilot)
        assert not screen.definition.filters
        assert screen.query_one("#report-field", Input).value == "Status"
        assert app.focused is screen.query_one("#report-value", Input)
        await type_text(pilot, "Closed")
        await pilot.press("enter")
        await settle(pilot)
        assert [(f.field, f.value) for f in screen.definition.filters] == [("Status", "Closed")]
        await choose_part(pilot, screen, "date_range")
        await type_text(pilot, "CreatedDate")
        await pilot.press("enter")
        await settle(pilot)
        assert screen.definition.date_ranges == ()
        assert app.focused is screen.query_one("#report-value", Input)


async def test_a_part_naming_an_unknown_field_is_refused_and_the_text_kept(app):
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_builder(pilot)
        await type_text(pilot, "Fiel")
        await pilot.press("enter")
        await settle(pilot)
        assert screen.definition.groupings == ()
        assert screen.query_one("#report-field", Input).value == "Fiel"
        check = str(screen.query_one("#report-check").render())
        assert "Fiel" in check and "unknown field" in check


async def test_typing_on_while_a_part_is_checked_loses_nothing(app):
    """Keys typed while the added part is still being checked stay in the box."""
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_builder(pilot)
        await type_text(pilot, "Status")
        await pilot.press("enter", "P", "r", "i")
        await settle(pilot)
        assert [g.field for g in screen.definition.groupings] == ["Status"]
        assert screen.query_one("#report-field", Input).value == "Pri"

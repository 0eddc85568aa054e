"""A date literal or number too big for any date typed in F8 is an
error line in the console, and the app goes on."""

from __future__ import annotations

import pytest

from tests.tui.results.test_soql_console import error_line, open_console, run, status


@pytest.mark.parametrize(
    ("query", "error"),
    [
        ("SELECT Id FROM Case WHERE CreatedDate = LAST_N_DAYS:999999999999", "MALFORMED_QUERY"),
        ("SELECT Id FROM Case WHERE CreatedDate = NEXT_N_YEARS:99999", "out of range"),
        ("SELECT Id FROM Case LIMIT 9223372036854775807", "MALFORMED_QUERY"),
        # a number past 64 bits compares as a float: no group has that many cases
        (
            "SELECT Status, COUNT(Id) FROM Case GROUP BY Status "
            "HAVING COUNT(Id) > 99999999999999999999999",
            "",
        ),
    ],
)
async def test_an_overflowing_literal_is_an_error_line_not_a_crash(make_app, query, error):
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = await open_console(pilot)
        await run(pilot, query)
        assert pilot.app.is_running and pilot.app.return_code in (None, 0)
        if error:
            assert error in error_line(screen) and "Unexpected" not in error_line(screen)
        else:
            assert error_line(screen) == "" and status(screen) == "No records"
        await run(pilot, "SELECT COUNT() FROM Case")
        assert error_line(screen) == ""

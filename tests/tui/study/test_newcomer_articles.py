"""A wrong record's message reads as English: "is an Account", not
"is a Account"; the article goes by the label's first letter wherever a label follows it."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from crm_tui.tui.browser.history import RecordLocation
from tests.helpers.pilot import settle
from tests.helpers.study_pilot import first_two_ids

SIZE = (120, 40)

pytestmark = pytest.mark.usefixtures("dana")  # one annotator profile to pick


async def test_a_wrong_record_is_an_account(make_app, small_org_path):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter", "s")  # Dana, then solve
        await settle(pilot)
        solve = app.screen
        wanted = solve.family.answer_object
        other, phrase = (
            ("Account", "is an Account") if wanted != "Account" else ("Issue__c", "is an Issue")
        )
        await pilot.press("f2")
        await settle(pilot)
        app.navigate(RecordLocation(first_two_ids(small_org_path, other)[0]))
        await settle(pilot)
        app._notifications.clear()
        await pilot.press("u")
        await settle(pilot)
        messages = [n.message for n in app._notifications]
        assert len(messages) == 1 and phrase in messages[0], messages
        assert " a Account" not in messages[0] and " a Issue" not in messages[0]
        assert solve.query_one("#answer-text", Input).value == ""

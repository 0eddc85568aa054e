"""SVG snapshot at 120x40 of the invitation-code screen after a wrong code."""

from __future__ import annotations

from tests.helpers.invitation_pilot import enter_code, invite_to

SIZE = (120, 40)


def test_invitation_code_screen(make_app, study_path, clock, snap_compare):
    invite_to(study_path, clock, "Ana", "annotator")

    async def wrong_code(pilot):
        await enter_code(pilot, "2345-6789-abcd-efgh")
        pilot.app.screen.query_one("#invitation-code").cursor_blink = False

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=wrong_code)

"""A study whose profiles were made in the app, then someone invited: the people who made
those profiles meet the code screen, which says why and what to do; `study invite` names
the profiles that now need a code, and gives an existing one its code."""

from __future__ import annotations

from crm_tui.study.store.db import StudyStore
from crm_tui.study.work.invitations import invite
from crm_tui.tui.study.invitation_code import InvitationCodeScreen
from tests.helpers.invitation_pilot import enter_code, invite_to
from tests.helpers.pilot import settle

SIZE = (100, 30)


async def test_the_code_screen_says_why_a_local_profile_needs_a_code(
    make_app, dana, study_path, clock
):
    invite_to(study_path, clock, "Rae Kim", "annotator")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, InvitationCodeScreen)
        shown = " ".join(str(s.render()) for s in screen.query("Static, Label"))
        assert "made a profile" in shown.lower() and "coordinator" in shown
        # Dana's code, from `study invite Dana`, opens Dana's profile made earlier
        code = invite_to(study_path, clock, "Dana", "annotator")
        await enter_code(pilot, code)
        assert app.working_profile() is not None
        assert app.working_profile().name == "Dana"


def test_the_first_invitation_names_the_profiles_left_without_a_code(study_path, clock, dana):
    with StudyStore.open(study_path, clock) as store:
        issued = invite(store, "Rae Kim", "annotator")
        assert issued.without_code == ("Dana",)
        again = invite(store, "Dana", "annotator")
        assert again.without_code == ()

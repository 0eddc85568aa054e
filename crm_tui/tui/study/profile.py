"""The first study screen of a plain local run: pick your profile, or create one (name,
role, years using a CRM). Only annotator profiles are listed and made here: roles that see
gold answers come from an invitation code (`invitation_code.py`) or the CLI.

The app shows it before its study has opened (the study store loads SQLAlchemy, which
took half the start), from a quick read of the file (`FirstLook`); whatever is typed or
picked meanwhile waits for the study, then goes on as it would have."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from crm_tui.study.first_look import FirstLook
from crm_tui.study.views import Profile
from crm_tui.tui.study.study_screen import StudyScreen
from crm_tui.tui.styles import css_next_to

if TYPE_CHECKING:
    from crm_tui.study.service import StudyService


def _describe(profile: Profile) -> str:
    years = f"{profile.crm_years:g} year{'s' if profile.crm_years != 1 else ''}"
    mode = "" if profile.mode == "annotator" else f" · {profile.mode}"
    return f"{profile.name} — {profile.role}, {years} using a CRM{mode}"


class ProfileScreen(StudyScreen):
    CSS_PATH = css_next_to(__file__)
    HELP_TITLE = "Profiles"
    BINDINGS = [
        Binding("ctrl+n", "new_profile", "New profile", id="new-profile"),
        Binding("ctrl+b", "browse", "Browse the org", id="browse-org"),
        # Enter in the name or role moves on at once, as Tab does (`CrmApp`), before the
        # keys typed after it are handed on: typed fast, they went to the field it left.
        Binding(
            "enter",
            "next_form_field",
            "Next field",
            show=False,
            priority=True,
            tooltip="In the name or the role: on to the next field",
        ),
    ]
    FORM_STEPS = ("profile-name", "profile-role")  # fields where Enter goes to the next

    def __init__(
        self, service: StudyService | None = None, first_look: FirstLook | None = None
    ) -> None:
        """On an open study's `service`, or, while the app still opens it, on what
        `first_look` read of the file: `study_opened` then hands the service over."""
        if service is None and first_look is None:
            raise ValueError("the profile screen needs the study or a first look at it")
        super().__init__(service)  # type: ignore[arg-type]  # None until study_opened
        self.first_look = first_look
        # Set once the app has tried to open the study: to the service, or None.
        self._study_open = asyncio.Event()
        if service is not None:
            self._study_open.set()

    def study_failed(self) -> None:
        """The study did not open (the app says why): what waited for it does nothing."""
        self._study_open.set()

    async def study_opened(self, service: StudyService) -> None:
        """The study is open: actions go ahead. Should the file have changed since the
        first look (a profile made in between), the list shows the study's own."""
        self.service = service
        self._study_open.set()
        looked = self.first_look
        profiles = await self.study(service.pickable_profiles)
        if looked is not None and profiles is not None:
            if (service.study.name, tuple(profiles)) != (looked.study_name, looked.profiles):
                self.query_one("#profile-study", Static).update(f"Study: {service.study.name}")
                self._show(profiles)

    async def _opened_service(self) -> StudyService | None:
        """The study's service once open (at once, mostly); None if it did not open.

        While it opens, keys typed after the action reach no field or list here (with
        nothing focused they queue on this screen, behind the action): Textual then finds
        their keys on the screen the action brought, as if typed there."""
        if not self._study_open.is_set():
            focused = self.focused
            self.set_focus(None)
            await self._study_open.wait()
            if self.service is None and focused is not None and self.is_active:
                focused.focus()
        return self.service

    def _first_looked(self) -> FirstLook | None:
        """What the first look read, while the study is not open yet."""
        return None if self._study_open.is_set() else self.first_look

    def compose_body(self) -> ComposeResult:
        looked = self._first_looked()
        name = self.service.study.name if looked is None else looked.study_name
        yield Static(f"Study: {name}", classes="screen-title", id="profile-study")
        with Vertical(id="profile-body"):
            yield Label(
                "Who is working? Pick your profile and press Enter:", id="profile-list-label"
            )
            yield OptionList(id="profiles")
            yield Label(
                "…or create one (Tab moves between fields, Enter in the last one creates it):"
            )
            with Horizontal(id="profile-form"):
                yield Input(placeholder="Your name", id="profile-name")
                yield Input(placeholder="Role, e.g. Customer Service Agent", id="profile-role")
                yield Input(placeholder="Years using a CRM", type="number", id="profile-years")
                yield Button("Create", id="profile-create", variant="primary")

    async def on_mount(self) -> None:
        self.title = "Study profiles"
        looked = self._first_looked()
        if looked is not None:
            self._show(looked.profiles)
        else:
            await self.reload()

    async def reload(self) -> None:
        service = await self._opened_service()
        if service is not None:
            self._show(await self.study(service.pickable_profiles) or [])

    def _show(self, profiles: Sequence[Profile]) -> None:
        self.profiles = {str(p.id): p for p in profiles}
        options = self.query_one("#profiles", OptionList)
        options.clear_options()
        options.add_options(Option(_describe(p), id=str(p.id)) for p in profiles)
        if profiles:
            options.highlighted = 0
            options.focus()
        else:
            self.query_one("#profile-name", Input).focus()

    async def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:  # every option has its profile's name as its id
            await self._continue_as(self.profiles[event.option.id])

    def action_new_profile(self) -> None:
        self.query_one("#profile-name", Input).focus()

    def action_browse(self) -> None:
        self.app.action_objects()  # type: ignore[attr-defined]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "next_form_field":
            return self.focused is not None and self.focused.id in self.FORM_STEPS
        return True

    def action_next_form_field(self) -> None:
        self.focus_next()

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "profile-years":
            await self._create()
        else:
            self.focus_next()

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        await self._create()

    async def _create(self) -> None:
        name = self.query_one("#profile-name", Input).value
        role = self.query_one("#profile-role", Input).value
        years_text = self.query_one("#profile-years", Input).value.strip()
        try:
            years = float(years_text)
        except ValueError:
            self.notify("Years using a CRM: type a number, e.g. 3", severity="error")
            self.query_one("#profile-years", Input).focus()
            return
        service = await self._opened_service()
        if service is None:
            return
        profile = await self.study(service.create_profile, name, role, years)
        if profile is not None:
            for field in self.query("#profile-form Input").results(Input):
                field.value = ""
            await self.reload()
            await self._continue_as(profile)

    async def _continue_as(self, profile: Profile) -> None:
        from crm_tui.tui.study.home import HomeScreen

        service = await self._opened_service()
        if service is not None:
            self.app.push_screen(HomeScreen(service, profile))

"""Helpers for driving the study screens with Pilot."""

from __future__ import annotations

from collections.abc import Callable

from sqlmodel import col, select

from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Event
from crm_tui.study.work.protocol import Preset, load_preset
from crm_tui.study.work.studies import create_study
from crm_tui.tasks.families import get_family
from tests.helpers.pilot import settle


async def open_first_query(pilot):
    """From the profile list: Enter picks the profile, `s` opens the next query; the
    solve screen."""
    from crm_tui.tui.study.solve import SolveScreen

    await settle(pilot)
    await pilot.press("enter", "s")
    await settle(pilot)
    assert isinstance(pilot.app.screen, SolveScreen)
    return pilot.app.screen


async def submit_with_confidence(pilot, level: str = "4") -> None:
    """Ctrl+S submits the answer; `level` answers the confidence asked next."""
    await pilot.press("ctrl+s")
    await settle(pilot)
    await pilot.press(level)
    await settle(pilot)


async def type_text(pilot, text: str) -> None:
    await pilot.press(*[c if c != " " else "space" for c in text])


async def create_profile_via_form(pilot, name: str, role: str, years: str) -> None:
    await settle(pilot)
    pilot.app.screen.query_one("#profile-name").focus()
    for field_text in (name, role, years):
        await type_text(pilot, field_text)
        await pilot.press("enter")  # next field; in the last one, creates the profile
    await settle(pilot)


def event_kinds(store: StudyStore, attempt_id: int | None = None) -> list[str]:
    with store.transaction() as session:
        query = select(Event.kind).order_by(col(Event.id))
        if attempt_id is not None:
            query = query.where(Event.attempt_id == attempt_id)
        return list(session.exec(query))


# Five families whose answer is a record Id, so either answer can come from the browser.
FAMILIES = (
    "case_routing",
    "named_entity_disambiguation",
    "policy_violation_identification",
    "top_issue_identification",
    "handle_time",
)


def crafted_instances(org: OrgStore) -> list[dict]:
    """One instance per family; gold = the second record of the family's answer object,
    a wrong answer of the same object = the first (the test reads both)."""
    rows = []
    for idx, task in enumerate(FAMILIES):
        family = get_family(task)
        assert family.answer_object is not None  # the families above answer with a record
        gold = org.rows(family.answer_object, "1 ORDER BY Id LIMIT 2")[1]["Id"]
        rows.append(
            {
                "idx": idx,
                "task": task,
                "answer": gold,
                "reward_metric": family.metric,
                "query": f"Crafted {family.abbrev} query {idx}: which "
                f"{family.answer_object} is it? {family.suffix}",
                "metadata": {
                    "required": f"- Today's date: 2023-0{idx + 1}-15",
                    "optional": "## Domain details\nPolicies apply as written.",
                },
                "crm_tui": {
                    "persona": family.persona,
                    "answer_type": family.answer_type,
                    "answer_object": family.answer_object,
                    "org": org.fingerprint,
                },
            }
        )
    return rows


def create_crafted_study(
    store: StudyStore,
    org: OrgStore,
    name: str = "pilot",
    change: Callable[[Preset], Preset] | None = None,
):
    """The paper preset (`change`d, if given) on `crafted_instances(org)`, in `store`."""
    preset, preset_path = load_preset("paper-expert-study")
    if change is not None:
        preset = change(preset)
    return create_study(
        store,
        name,
        preset,
        instances=crafted_instances(org),
        task_set_hash="sha256:crafted",
        org_fingerprint=org.fingerprint,
        preset_path=preset_path,
    )


def create_one_item_study(store: StudyStore, org: OrgStore, item: dict, name: str):
    """The paper preset with its solve part cut to one query, on `item` alone."""
    preset, preset_path = load_preset("paper-expert-study")
    parts = [p.model_copy(update={"items": 1}) if p is preset.solve else p for p in preset.parts]
    return create_study(
        store,
        name,
        preset.model_copy(update={"parts": parts}),
        instances=[item],
        task_set_hash=f"sha256:{name}",
        org_fingerprint=org.fingerprint,
        preset_path=preset_path,
    )


def first_two_ids(org_path, object_name: str) -> list[str]:
    with OrgStore.open(org_path) as org:
        return [r["Id"] for r in org.rows(object_name, "1 ORDER BY Id LIMIT 2")]

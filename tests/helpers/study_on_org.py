"""Helpers for running a study on an org through any backend (local or Salesforce)."""

from __future__ import annotations

from crm_tui.org.store.orgstore import OrgStore
from crm_tui.tasks.families import get_family
from tests.helpers.pilot import settle

STUDY_FAMILIES = (
    "case_routing",
    "named_entity_disambiguation",
    "policy_violation_identification",
    "top_issue_identification",
    "handle_time",
)


def study_rows(org_path, fingerprint: str) -> list[dict]:
    """Record-answer items (one per family) whose gold is the answer object's 2nd record."""
    rows = []
    with OrgStore.open(org_path) as org:
        for idx, task in enumerate(STUDY_FAMILIES):
            family = get_family(task)
            assert family.answer_object is not None  # the families above answer with a record
            gold = org.rows(family.answer_object, "1 ORDER BY Id LIMIT 2")[1]["Id"]
            rows.append(
                {
                    "idx": idx,
                    "task": task,
                    "answer": gold,
                    "reward_metric": family.metric,
                    "query": f"Which {family.answer_object} is it? {family.suffix}",
                    "metadata": {"required": "- Today's date: 2023-01-15", "optional": ""},
                    "crm_tui": {
                        "persona": family.persona,
                        "answer_type": family.answer_type,
                        "answer_object": family.answer_object,
                        "org": fingerprint,
                    },
                }
            )
    return rows


async def create_profile(pilot) -> None:
    await settle(pilot)
    pilot.app.screen.query_one("#profile-name").focus()
    for text in ("Dana", "Agent", "6"):
        await pilot.press(*[c if c != " " else "space" for c in text], "enter")
    await settle(pilot)

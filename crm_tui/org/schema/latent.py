"""The generator's hidden (latent) variables: names and value formats.

They are stored in the org file's `_latent` table as (object, record_id, variable, value)
with `value` as JSON text, never in the object tables, so a person browsing the org (or
an agent querying it) cannot see them. The task layer reads them to build queries whose
gold answers the generator made true (PVI violations, KQA pairs, NED nicknames).

This module is the contract between the generator (writes) and the task layer (reads).
"""

from __future__ import annotations

import json
from typing import Any

# (object, variable): meaning and JSON value format
USER_SKILL = ("User", "skill")  # float in [0, 1]; low skill -> more transfers, slower closes
ACCOUNT_SHOPPING_HABIT = ("Account", "shopping_habit")
# {"seasons": ["black_friday", "christmas", ...], "categories": [category names]}
PRODUCT_ISSUE_PROPENSITY = ("Product2", "issue_propensity")  # float, relative case rate
PRODUCT_PEAK_MONTHS = ("Product2", "peak_months")  # [month numbers 1-12] its cases peak in
PRODUCT_NICKNAMES = ("Product2", "nicknames")
# ["speed training jump rope", ...]: how a customer might loosely name the product; each
# nickname's words occur in the product's Name or Description (so search finds it)
STATE_CLOSURE_SPEED = ("State", "closure_speed")  # record_id = "GA"; float multiplier (<1 = faster)
ISSUE_POLICY_ARTICLE = ("Issue__c", "policy_article")  # Knowledge__kav Id of the issue's policy
ARTICLE_POLICY = ("Knowledge__kav", "policy")
# {"issue": Issue__c Id, "resolutions": {"Full Refund": 30, "Replacement": 60, ...}}
# (days after the order's EffectiveDate the resolution stays valid; null = no limit)
ARTICLE_QA = ("Knowledge__kav", "qa")
# [{"question": "...", "answer": "..."}]: each answer is a verbatim span of FAQ_Answer__c
ARTICLE_INTERNAL_QA = ("Knowledge__kav", "internal_qa")
# the same, of an internal-only article (IsVisibleInCsp false): never a knowledge_qa item
CASE_POLICY_VIOLATION = ("Case", "policy_violation")
# {"article": Knowledge__kav Id or null, "offered": "Extended Warranty", "why": "..."}
# null article = the agent kept to the policy


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)

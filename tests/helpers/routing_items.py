"""Small made-up task sets for study tests: case-routing queries whose golds are user Ids."""

from __future__ import annotations

from typing import Any

ORG = "local-0000"


def instances(org: str | None = ORG, count: int = 3) -> list[dict[str, Any]]:
    """`count` case-routing queries of `org` (None: rows that name no org)."""
    return [
        {
            "idx": idx,
            "task": "case_routing",
            "query": f"Who should take case {idx}?",
            "answer": f"005Wt00000000{idx:02}AAA",
            "metadata": {"required": "- Today's date: 2023-01-15"},
            "reward_metric": "exact_match",
        }
        | ({"crm_tui": {"org": org}} if org is not None else {})
        for idx in range(count)
    ]

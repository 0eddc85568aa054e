"""Case-routing golds against CRMArena's helper, on orgs beyond the default one.

Generates (or reuses) the orgs of seeds 2-4 at scale 1 and of seed 1 at scale 3, generates
each one's task set (seed 1) and checks every case-routing gold against the reference
written from the description of CRMArena's `get_best_assigned_agent`
(tests/helpers/crmarena_routing.py; the test suite checks the default org). Prints a
Markdown table: items, agreements, the share each rule decided, distinct agents. Exits 1
if any gold differs from the helper's answer.

Run: python -m tests.benchmarks.routing_reference [--orgs 2:1 3:1 4:1 1:3] [--smoke]
"""

from __future__ import annotations

import argparse
from collections import Counter

from crm_tui.org.store.orgstore import OrgStore
from crm_tui.tasks.generate import generate_taskset
from crm_tui.tasks.gold import ROUTING_RULES
from tests.benchmarks import smoke
from tests.helpers.crmarena_routing import best_assigned_agent, org_connection

ORGS = ["2:1", "3:1", "4:1", "1:3"]  # seed:scale


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--orgs", nargs="+", default=ORGS, help="seed:scale of each org")
    parser.add_argument("--per-task", type=int, default=130)
    args = smoke.parse(parser, argv, orgs=[f"2:{smoke.SMOKE_SCALE}"], per_task=10)
    columns = ["org seed", "scale", "routing items", "helper agrees", *ROUTING_RULES, "agents"]
    print("| " + " | ".join(columns) + " |")
    print("|" + "---:|" * len(columns))
    differ = 0
    with smoke.bench_folder(args.smoke) as folder:
        for spec in args.orgs:
            seed, scale = spec.split(":")
            path = smoke.task_org(folder, float(scale), int(seed))
            with OrgStore.open(path) as store:
                routing = generate_taskset(store, args.per_task, allow_short=args.smoke)
            items = routing.by_task().get("case_routing", [])
            with org_connection(path) as conn:
                agree = sum(
                    best_assigned_agent(conn, i.params["issue_id"], i.params["product_id"])
                    == i.answer
                    for i in items
                )
            differ += len(items) - agree
            shares = Counter(i.extra["decided_by"] for i in items)
            cells = [f"{100 * shares[r] / max(1, len(items)):.0f}%" for r in ROUTING_RULES]
            distinct = len({i.answer for i in items})
            print(
                f"| {seed} | {scale} | {len(items)} | {agree} | {' | '.join(cells)} | {distinct} |"
            )
    if differ:
        raise SystemExit(f"{differ} routing golds differ from CRMArena's helper")


if __name__ == "__main__":
    main()

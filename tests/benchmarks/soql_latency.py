"""p50/p95 latency of the spec 4.3 gold-answer queries as SOQL/SOSL through the loopback
server (HTTPS, unmodified simple-salesforce), for one or more orgs.

    python -m tests.benchmarks.soql_latency --scale 1 --scale 100      # generates the orgs
    python -m tests.benchmarks.soql_latency --org path/to/org.sqlite   # an existing org
    python -m tests.benchmarks.soql_latency --smoke                    # scale 0.1, 2 repeats
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from datetime import date
from pathlib import Path

import requests
from simple_salesforce import Salesforce

from crm_tui.org.server.loopback_tls import make_loopback_certificates
from crm_tui.org.server.rest import OrgServer
from crm_tui.org.store.orgstore import OrgStore
from tests.benchmarks import smoke


def gold_queries(org: Path) -> dict[str, str]:
    """One query per gold-answer step of spec 4.3, with parameters taken from the org."""
    with OrgStore.open(org) as store:

        def first(sql: str) -> str:
            row = store.conn.execute(sql).fetchone()
            return row[0] if row else "000000000000000AAA"

        issue = first("SELECT Id FROM Issue__c ORDER BY Id")
        product = first(
            "SELECT Product2Id FROM OrderItem GROUP BY Product2Id ORDER BY count(*) DESC"
        )
        account = first('SELECT AccountId FROM "Order" ORDER BY Id')
        day = first(f"SELECT EffectiveDate FROM \"Order\" WHERE AccountId = '{account}'")
        term = (first(f"SELECT Name FROM Product2 WHERE Id = '{product}'") or "x").split()[-1]
        latest = date.fromisoformat(first('SELECT max(CreatedDate) FROM "Case"')[:10])
    # "The past year" up to the org's last case, as the tasks' periods are.
    start = f"{latest.replace(year=latest.year - 1).isoformat()}T00:00:00Z"
    end = f"{latest.isoformat()}T00:00:00Z"
    items = f"(SELECT Id FROM OrderItem WHERE Product2Id = '{product}')"
    return {
        "NCR closed cases by owner": f"SELECT OwnerId, COUNT(Id) FROM Case WHERE IssueId__c = "
        f"'{issue}' AND Status = 'Closed' GROUP BY OwnerId",
        "HTU/TCU owner assignments": "SELECT CaseId__c, NewValue__c, OldValue__c FROM "
        "CaseHistory__c WHERE Field__c = 'Owner Assignment' AND "
        f"CreatedDate >= {start} AND CreatedDate <= {end}",
        "HTU single-assignment cases": "SELECT CaseId__c FROM CaseHistory__c WHERE Field__c = "
        f"'Owner Assignment' AND CreatedDate >= {start} AND "
        f"CreatedDate <= {end} GROUP BY CaseId__c "
        "HAVING COUNT(Id) = 1",
        "NED product search": f"FIND {{{term}}} IN ALL FIELDS RETURNING "
        "Product2(Id, Name, Description)",
        "NED order items on a day": "SELECT Product2Id FROM OrderItem WHERE Order.AccountId = "
        f"'{account}' AND Order.EffectiveDate = {day} "
        "AND Order.Status = 'Activated'",
        "TII issues of a product": f"SELECT IssueId__c, COUNT(Id) FROM Case WHERE "
        f"OrderItemId__c IN {items} AND CreatedDate >= {start} "
        f"AND CreatedDate <= {end} GROUP BY IssueId__c",
        "MTA cases of a product": f"SELECT CreatedDate FROM Case WHERE OrderItemId__c IN "
        f"{items} AND CreatedDate >= {start} AND CreatedDate < {end}",
        "BRI closed cases with state": "SELECT Account.ShippingState, CreatedDate, ClosedDate "
        f"FROM Case WHERE CreatedDate >= {start} AND "
        f"CreatedDate < {end} AND Status = 'Closed'",
        "COUNT() of cases": "SELECT COUNT() FROM Case",
    }


def measure(org: Path, repeat: int, workdir: Path) -> list[tuple[str, float, float, int]]:
    certs = make_loopback_certificates(workdir / "certs")
    rows = []
    with OrgServer(org, tls=certs.server_context()) as server:
        session = requests.Session()
        session.verify, session.trust_env = str(certs.ca_pem), False
        sf = Salesforce(
            instance_url=server.url, session_id=server.session_id, session=session, version="59.0"
        )
        for name, text in gold_queries(org).items():
            # COUNT() through query(): query_all recomputes totalSize from the records.
            run = (
                sf.search
                if text.startswith("FIND")
                else sf.query
                if "COUNT()" in text
                else sf.query_all
            )
            timings, size = [], 0
            for _ in range(repeat):
                started = time.perf_counter()
                answer = run(text)
                timings.append((time.perf_counter() - started) * 1000)
                size = answer.get("totalSize", len(answer.get("searchRecords", [])))
            p95 = statistics.quantiles(timings, n=20)[-1] if len(timings) > 1 else timings[0]
            rows.append((name, statistics.median(timings), p95, size))
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--org", type=Path, action="append", default=[])
    parser.add_argument("--scale", type=float, action="append", default=[])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=30)
    args = smoke.parse(parser, argv, org=[], scale=[smoke.SMOKE_SCALE], repeat=2)
    with tempfile.TemporaryDirectory() as tmp:
        orgs = [(str(p), p) for p in args.org]
        for scale in args.scale:
            from crm_tui.org.generate.build_file import generate

            path = Path(tmp) / f"scale-{scale:g}.sqlite"
            generate(path, seed=args.seed, scale=scale)
            orgs.append((f"scale {scale:g}", path))
        print("| org | query | p50 ms | p95 ms | rows |\n|---|---|---:|---:|---:|")
        for label, path in orgs:
            for name, p50, p95, size in measure(path, args.repeat, Path(tmp)):
                print(f"| {label} | {name} | {p50:.1f} | {p95:.1f} | {size} |")


if __name__ == "__main__":
    main()

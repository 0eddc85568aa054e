"""p50/p95 latency of the gold-answer queries as SOQL/SOSL through the loopback
server (HTTPS, unmodified simple-salesforce), for one or more orgs; then the big answers
and a semi-join side by side with their floor, the same query as plain SQL.

    python -m tests.benchmarks.soql_latency --scale 1 --scale 100      # generates the orgs
    python -m tests.benchmarks.soql_latency --org path/to/org.sqlite   # an existing org
    python -m tests.benchmarks.soql_latency --org big.sqlite --part ratios --repeat 15
    python -m tests.benchmarks.soql_latency --smoke                    # scale 0.1, 2 repeats

Side by side: each round runs the program, then its floor, alternating, so that both see
the same load. The program is the SOQL query in process (`execute_soql_json` and the
answer's bytes: all the server's work but HTTP), or through the server with `query_all`
(all pages over HTTPS, parsed by the client: by default into OrderedDicts, which costs
twice the plain SQL at 100x; then again as the app's Salesforce backend reads an answer:
into plain dicts with `object_pairs_hook=None` through the app's own session (which
parses with orjson), following the pages with `query` and
`query_more` and adding up their record lists (`query_all` passes every record through a
generator); the floor is a hand-written SQL statement of
the same rows and columns on a read-only connection, fetched as tuples. Wall and CPU
medians (CPU: all threads of the process, the in-process server's too).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import requests
from simple_salesforce import Salesforce

from crm_tui.org.backends.sf_connection import TimeoutSession
from crm_tui.org.bulk_gc import collection_paused
from crm_tui.org.server.loopback_tls import make_loopback_certificates
from crm_tui.org.server.rest import OrgServer
from crm_tui.org.soql.executor import execute_soql_json
from crm_tui.org.store.orgstore import OrgStore, connect
from tests.benchmarks import smoke


def _parameters(org: Path) -> dict[str, str]:
    """Values the queries ask about, taken from the org: an issue, the best-selling
    product, an account with orders, one of its order days, a word of the product's name,
    and "the past year" up to the org's last case, as the tasks' periods are."""
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
    return {
        "issue": issue,
        "product": product,
        "account": account,
        "day": day,
        "term": term,
        "start": f"{latest.replace(year=latest.year - 1).isoformat()}T00:00:00Z",
        "end": f"{latest.isoformat()}T00:00:00Z",
    }


def gold_queries(org: Path) -> dict[str, str]:
    """One query per gold-answer step, with parameters taken from the org."""
    values = _parameters(org)
    issue, product, account, day, term = (
        values[k] for k in ("issue", "product", "account", "day", "term")
    )
    start, end = values["start"], values["end"]
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


@contextmanager
def _client(
    org: Path, workdir: Path, session: requests.Session | None = None, **options: Any
) -> Iterator[Salesforce]:
    """simple-salesforce on a loopback server of `org` over HTTPS, through `session` (a
    plain requests session by default); `options` go to `Salesforce` (e.g.
    `object_pairs_hook=None`)."""
    certs = make_loopback_certificates(workdir / "certs")
    with OrgServer(org, tls=certs.server_context()) as server:
        session = session or requests.Session()
        session.verify, session.trust_env = str(certs.ca_pem), False
        yield Salesforce(
            instance_url=server.url,
            session_id=server.session_id,
            session=session,
            version="59.0",
            **options,
        )


@dataclass
class Pair:
    """A SOQL query and its floor: the same rows and columns as hand-written SQL."""

    name: str
    soql: str
    floor_sql: str
    floor_params: tuple[str, ...]


def _stored(literal: str) -> str:
    """A SOQL DateTime literal (`...T00:00:00Z`) as the store keeps DateTimes."""
    return literal[:-1] + ".000+0000"


def side_by_side_pairs(org: Path) -> list[Pair]:
    """The issue's big answers (thousands of records at 100x) and a semi-join."""
    values = _parameters(org)
    start, end, product = values["start"], values["end"], values["product"]
    period = (_stored(start), _stored(end))
    return [
        Pair(
            "HTU/TCU owner assignments, past year",
            "SELECT CaseId__c, NewValue__c, OldValue__c FROM CaseHistory__c WHERE Field__c = "
            f"'Owner Assignment' AND CreatedDate >= {start} AND CreatedDate <= {end}",
            "SELECT Id, CaseId__c, NewValue__c, OldValue__c FROM CaseHistory__c "
            "WHERE Field__c = ? AND CreatedDate >= ? AND CreatedDate <= ?",
            ("Owner Assignment", *period),
        ),
        Pair(
            "BRI closed cases with the account's state, past year",
            "SELECT Account.ShippingState, CreatedDate, ClosedDate FROM Case WHERE "
            f"CreatedDate >= {start} AND CreatedDate < {end} AND Status = 'Closed'",
            'SELECT c.Id, a.Id, a.ShippingState, c.CreatedDate, c.ClosedDate FROM "Case" c '
            "LEFT JOIN Account a ON a.Id = c.AccountId "
            "WHERE c.CreatedDate >= ? AND c.CreatedDate < ? AND c.Status = 'Closed'",
            period,
        ),
        Pair(
            "accounts in CA with their cases (child sub-query)",
            "SELECT Id, Name, (SELECT Id, Subject, Status, CreatedDate FROM Cases) "
            "FROM Account WHERE ShippingState = 'CA'",
            "SELECT a.Id, a.Name, c.Id, c.Subject, c.Status, c.CreatedDate FROM Account a "
            'LEFT JOIN "Case" c ON c.AccountId = a.Id WHERE a.ShippingState = ?',
            ("CA",),
        ),
        Pair(
            "MTA cases of a product (semi-join)",
            f"SELECT CreatedDate FROM Case WHERE OrderItemId__c IN (SELECT Id FROM OrderItem "
            f"WHERE Product2Id = '{product}') AND CreatedDate >= {start} AND CreatedDate < {end}",
            'SELECT c.Id, c.CreatedDate FROM "Case" c JOIN OrderItem oi ON oi.Id = '
            "c.OrderItemId__c WHERE oi.Product2Id = ? AND c.CreatedDate >= ? "
            "AND c.CreatedDate < ?",
            (product, *period),
        ),
    ]


@dataclass
class SideBySide:
    """One pair measured one way: medians of wall and CPU milliseconds."""

    name: str
    path: str
    records: int
    wall: float
    cpu: float
    floor_wall: float
    floor_cpu: float


def _timed(work: Callable[[], object]) -> tuple[float, float]:
    """(wall, CPU) milliseconds of one call; CPU counts every thread of the process (the
    loopback server's too), and is less inflated than wall time by other jobs' load."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def measure_side_by_side(org: Path, repeat: int, workdir: Path) -> list[SideBySide]:
    """Per pair and path (the server's work in process; the whole round trip through
    the server with simple-salesforce): program and floor alternating round by round."""
    rows = []
    floor = connect(org, readonly=True)
    with (
        _client(org, workdir) as sf,
        _client(org, workdir / "dicts", TimeoutSession(), object_pairs_hook=None) as sf_dicts,
        OrgStore.open(org) as store,
    ):
        for pair in side_by_side_pairs(org):

            def engine(pair: Pair = pair) -> int:
                with collection_paused():  # as the server runs it
                    answer = execute_soql_json(store, pair.soql)
                    answer.body()
                return answer.total_size

            def server(pair: Pair = pair) -> int:
                return int(sf.query_all(pair.soql)["totalSize"])

            def server_dicts(pair: Pair = pair) -> int:
                answer = sf_dicts.query(pair.soql)
                records = answer["records"]
                while not answer["done"]:
                    answer = sf_dicts.query_more(answer["nextRecordsUrl"], identifier_is_url=True)
                    records += answer["records"]
                return len(records)

            def plain_sql(pair: Pair = pair) -> None:
                floor.execute(pair.floor_sql, pair.floor_params).fetchall()

            paths = {
                "SOQL engine in process": engine,
                "server + simple-salesforce": server,
                "server + simple-salesforce, as the app reads": server_dicts,
            }
            for path, program in paths.items():
                records = program()  # warm: both find the pages they read in the cache
                plain_sql()
                program_times, floor_times = [], []
                for _ in range(repeat):
                    program_times.append(_timed(program))
                    floor_times.append(_timed(plain_sql))
                wall, cpu = (statistics.median(t[k] for t in program_times) for k in (0, 1))
                floor_wall, floor_cpu = (
                    statistics.median(t[k] for t in floor_times) for k in (0, 1)
                )
                rows.append(SideBySide(pair.name, path, records, wall, cpu, floor_wall, floor_cpu))
    floor.close()
    return rows


def measure(org: Path, repeat: int, workdir: Path) -> list[tuple[str, float, float, int]]:
    rows = []
    with _client(org, workdir) as sf:
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
    parser.add_argument(
        "--part", choices=("latency", "ratios", "both"), default="both", help="which table"
    )
    args = smoke.parse(parser, argv, org=[], scale=[smoke.SMOKE_SCALE], repeat=2)
    with tempfile.TemporaryDirectory() as tmp:
        orgs = [(str(p), p) for p in args.org]
        for scale in args.scale:
            from crm_tui.org.generate.build_file import generate

            path = Path(tmp) / f"scale-{scale:g}.sqlite"
            generate(path, seed=args.seed, scale=scale)
            orgs.append((f"scale {scale:g}", path))
        if args.part != "ratios":
            print("| org | query | p50 ms | p95 ms | rows |\n|---|---|---:|---:|---:|")
            for label, path in orgs:
                for name, p50, p95, size in measure(path, args.repeat, Path(tmp)):
                    print(f"| {label} | {name} | {p50:.1f} | {p95:.1f} | {size} |")
        if args.part != "latency":
            print(
                "\n| org | query | path | records | SOQL p50 ms (CPU) | plain SQL p50 ms (CPU) "
                "| ratio wall / CPU |\n|---|---|---|---:|---:|---:|---:|"
            )
            loads = []
            for label, path in orgs:
                load = os.getloadavg()[0]
                for row in measure_side_by_side(path, args.repeat, Path(tmp)):
                    print(
                        f"| {label} | {row.name} | {row.path} | {row.records:,} "
                        f"| {row.wall:.1f} ({row.cpu:.1f}) | {row.floor_wall:.1f} "
                        f"({row.floor_cpu:.1f}) | {row.wall / row.floor_wall:.2f}x / "
                        f"{row.cpu / max(row.floor_cpu, 0.001):.2f}x |"
                    )
                loads.append(
                    f"{label}: load average {load:.2f} before, {os.getloadavg()[0]:.2f} after"
                )
            print("\n" + "\n".join(loads))


if __name__ == "__main__":
    main()

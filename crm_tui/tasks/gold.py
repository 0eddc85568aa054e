"""Gold answers: one function per task family, computed over a local org (CRMArena's task definitions).

Each function returns the gold answer (a string) or `None` for a false-presupposition
instance, and raises `Undecidable` when the instance must not be emitted: a tie for the
argmax/argmin (14.7), or a counted record lying exactly on a period boundary, so that the
answer could change if the boundary were inclusive instead of exclusive (14.3). Records
are fetched over the closed range [start, end], checked for boundary hits, then filtered
with the helper's own inclusivity.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from datetime import date
from functools import cache
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from crm_tui.org.generate.kbtexts import resolutions
from crm_tui.org.schema import latent
from crm_tui.org.schema.sftime import format_date
from crm_tui.org.store.orgstore import OrgStore
from crm_tui.org.store.search_terms import fts_query
from crm_tui.tasks.gold_rows import (
    ASSIGNMENTS_SQL,
    CLOSED_BY_STATE_SQL,
    CLOSED_CASES_SQL,
    GoldRows,
    SortedRows,
    in_period,
)
from crm_tui.tasks.gold_rows import OWNER_ASSIGNMENT as OWNER_ASSIGNMENT  # re-exported
from crm_tui.tasks.gold_rows import SECONDS_SQL as SECONDS_SQL
from crm_tui.tasks.periods import MONTHS, Period, offset_before

if TYPE_CHECKING:
    from fractions import Fraction  # scores may be exact means; no import at run time


class Undecidable(Exception):
    """The instance has no unique, boundary-proof gold answer and must be skipped."""


def unique_extreme(scores: Mapping[str, Fraction | int], extreme: str, what: str) -> str:
    """The single key with the lowest ("min") or highest ("max") score; a tie is Undecidable."""
    if not scores:
        raise Undecidable(f"nothing to rank by {what}")
    best = (min if extreme == "min" else max)(scores.values())
    winners = sorted(k for k, v in scores.items() if v == best)
    if len(winners) > 1:
        raise Undecidable(f"tie on {what} between {', '.join(winners)}")
    return winners[0]


def _check_boundaries(timestamps: Iterable[str], period: Period, what: str) -> None:
    if not {period.sf_start, period.sf_end}.isdisjoint(timestamps):
        raise Undecidable(f"a {what} lies exactly on a boundary of {period.label}")


def _check_held_boundaries(rows: SortedRows[Any], period: Period, what: str) -> None:
    """`_check_boundaries` on rows sorted by CreatedDate: two bisections, not a scan."""
    if rows.on_bounds(period.sf_start, period.sf_end):
        raise Undecidable(f"a {what} lies exactly on a boundary of {period.label}")


def _mean_by(pairs: Iterable[tuple[str, int]]) -> dict[str, tuple[int, int]]:
    """Per-key (sum, count), the exact mean for `unique_extreme_mean`."""
    totals: dict[str, list[int]] = {}
    for key, value in pairs:
        totals.setdefault(key, []).append(value)
    return {k: (sum(v), len(v)) for k, v in totals.items()}


def unique_extreme_mean(totals: Mapping[str, tuple[int, int]], extreme: str, what: str) -> str:
    """`unique_extreme` over the exact means sum / count, compared as integer cross
    products (a/b < c/d exactly when a*d < c*b, counts being positive): the same winner
    and ties as Fractions, without making one per key."""
    if not totals:
        raise Undecidable(f"nothing to rank by {what}")
    lowest = extreme == "min"
    winners: list[str] = []
    best_sum, best_count = 0, 1
    for key, (total, count) in totals.items():
        if winners:
            mine, theirs = total * best_count, best_sum * count
            if mine == theirs:
                winners.append(key)
                continue
            if (mine > theirs) if lowest else (mine < theirs):
                continue
        winners, best_sum, best_count = [key], total, count
    if len(winners) > 1:
        winners.sort()
        raise Undecidable(f"tie on {what} between {', '.join(winners)}")
    return winners[0]


# ----------------------------------------------------------------- case history
def owner_assignments(
    store: OrgStore, period: Period, held: GoldRows | None = None
) -> list[tuple[str, str, str | None, str]]:
    """(case, new owner, old owner, time) of every Owner Assignment row in [start, end];
    from `held` (the same rows, read once) when given."""
    if held is not None:
        _check_held_boundaries(held.assignments, period, "case-history row")
        return held.assignments.between(period.sf_start, period.sf_end)
    rows = [
        (r[0], r[1], r[2], r[3])
        for r in store.conn.execute(
            ASSIGNMENTS_SQL.format(period=in_period("CreatedDate")),
            (OWNER_ASSIGNMENT, period.sf_start, period.sf_end),
        )
    ]
    _check_boundaries(map(itemgetter(3), rows), period, "case-history row")
    return rows


def managed_counts(assignments: Iterable[tuple[str, str, str | None, str]]) -> Counter[str]:
    """Cases each agent "managed": Owner Assignment rows by New Value, first assignments and
    transfers in alike (14.1)."""
    return Counter(filter(None, map(itemgetter(1), assignments)))


def qualified_agents(
    assignments: Iterable[tuple[str, str, str | None, str]], threshold: int
) -> set[str]:
    """Agents who managed strictly more than `threshold` cases."""
    return {agent for agent, n in managed_counts(assignments).items() if n > threshold}


def handle_time(
    store: OrgStore, period: Period, threshold: int, extreme: str, held: GoldRows | None = None
) -> str | None:
    """HTU: the agent with the min/max average handle time among agents who managed > N cases.

    managed[a] = Owner Assignment rows with start <= CreatedDate <= end and NewValue = a
    (transfers in included); qualified = managed > N. Non-transferred cases = cases with
    exactly one Owner Assignment row in that range. Handle time = ClosedDate - CreatedDate
    of Closed, non-transferred cases with start <= CreatedDate < end owned (OwnerId) by a
    qualified agent, averaged per agent. None if no agent qualifies or none owns such a case.
    `held`: the same rows, read once (`gold_rows`).
    """
    assignments = owner_assignments(store, period, held)
    qualified = qualified_agents(assignments, threshold)
    if not qualified:
        return None
    per_case = Counter(map(itemgetter(0), assignments))
    single = {case for case, n in per_case.items() if n == 1}
    start, end = period.sf_start, period.sf_end
    if held is not None:
        _check_held_boundaries(held.closed_cases, period, "case")
        rows = held.closed_cases.between(start, end)
    else:
        rows = store.conn.execute(
            CLOSED_CASES_SQL.format(period=in_period("CreatedDate")), (start, end)
        ).fetchall()
        _check_boundaries(map(itemgetter(2), rows), period, "case")
    means = _mean_by(
        (owner, seconds)
        for case, owner, created, seconds in rows
        if case in single and owner in qualified and created < end
    )
    if not means:
        return None
    return unique_extreme_mean(means, extreme, "average handle time")


def transfer_count(
    store: OrgStore, period: Period, threshold: int, extreme: str, held: GoldRows | None = None
) -> str | None:
    """TCU: the agent with the most/fewest transfers among agents who managed > N cases.

    managed and qualified as in HTU. transfers[a] = Owner Assignment rows with start <=
    CreatedDate <= end whose OldValue is a (the agent giving the case away), for qualified
    agents only; agents without a transfer are not ranked (14.6). None if nobody is ranked.
    """
    assignments = owner_assignments(store, period, held)
    qualified = qualified_agents(assignments, threshold)
    transfers = Counter(old for _, _, old, _ in assignments if old and old in qualified)
    if not transfers:
        return None
    return unique_extreme(transfers, extreme, "transfer count")


# ----------------------------------------------------------------- routing
ROUTING_RULES = ("expertise", "product", "workload")  # the policy's criteria, in order


def case_routing(store: OrgStore, issue_id: str, product_id: str) -> str:
    """NCR: the routing policy's agent for a new case of `issue_id` about `product_id`."""
    return case_routing_decision(store, issue_id, product_id)[0]


def case_routing_decision(
    store: OrgStore, issue_id: str, product_id: str, held: GoldRows | None = None
) -> tuple[str, str]:
    """NCR: (agent, the rule of ROUTING_RULES that decided) for a new case.

    1. Issue expertise: Closed cases of the issue (all time) by OwnerId; unique max wins.
    2. Among those tied: Closed cases whose order item is of the product; unique max wins.
    3. Among those still tied: fewest cases by workload, emitted only if "Status != 'Closed'"
       and "Status = 'Open'" name the same single agent (14.2); else Undecidable.

    Only answers CRMArena's helper gives too (14.2): it counts the cases it fetched, so
    rule 2 with no closed case of the product among the tied gives it None, and an agent
    without an 'Open' case never enters its workload count. Both are Undecidable here.
    `held`: the same counts, read once (`gold_rows`).
    """
    if held is not None:  # the first rule depends on the issue only: kept per issue
        tied = held.issue_leaders.get(issue_id)
        if tied is None:
            tied = held.issue_leaders[issue_id] = _leaders(held.closed_by_issue.get(issue_id, {}))
    else:
        tied = _leaders(
            dict(
                store.conn.execute(
                    'SELECT OwnerId, count(*) FROM "Case" WHERE IssueId__c = ? '
                    "AND Status = 'Closed' AND OwnerId IS NOT NULL GROUP BY OwnerId",
                    (issue_id,),
                ).fetchall()
            )
        )
    if not tied:
        raise Undecidable(f"no closed case of issue {issue_id}")
    if len(tied) == 1:
        return tied[0], "expertise"
    marks = ", ".join("?" * len(tied))
    if held is not None:
        of_product = held.closed_by_product.get(product_id, {})
        found = {a: of_product[a] for a in tied if a in of_product}
    else:
        found = dict(
            store.conn.execute(
                f'SELECT c.OwnerId, count(*) FROM "Case" c JOIN OrderItem oi '
                f"ON c.OrderItemId__c = oi.Id WHERE oi.Product2Id = ? AND c.Status = 'Closed' "
                f"AND c.OwnerId IN ({marks}) GROUP BY c.OwnerId",
                (product_id, *tied),
            ).fetchall()
        )
    if not any(found.values()):
        raise Undecidable(f"no closed case of product {product_id} among the issue's experts")
    product_counts: dict[str, int] = dict.fromkeys(tied, 0) | found
    top = max(product_counts.values())
    tied = sorted(a for a, n in product_counts.items() if n == top)
    if len(tied) == 1:
        return tied[0], "product"
    marks = ", ".join("?" * len(tied))
    workloads = []
    for condition in ("Status != 'Closed'", "Status = 'Open'"):
        if held is not None:
            held_counts = held.not_closed if condition.startswith("Status !=") else held.open
            found = {a: held_counts[a] for a in tied if a in held_counts}
        else:
            found = dict(
                store.conn.execute(
                    f'SELECT OwnerId, count(*) FROM "Case" WHERE {condition} '
                    f"AND OwnerId IN ({marks}) GROUP BY OwnerId",
                    tied,
                ).fetchall()
            )
        counts = dict.fromkeys(tied, 0) | found
        if not all(counts.values()):
            raise Undecidable(f"an agent tied on expertise has no case with {condition}")
        workloads.append(unique_extreme(counts, "min", f"workload ({condition})"))
    if workloads[0] != workloads[1]:
        raise Undecidable("the two readings of the workload rule disagree")
    return workloads[0], "workload"


def _leaders(counts: Mapping[str, int]) -> list[str]:
    """The agents with the highest count, sorted; none for no counts."""
    if not counts:
        return []
    top = max(counts.values())
    return sorted(a for a, n in counts.items() if n == top)


# ----------------------------------------------------------------- products
def search_products(store: OrgStore, text: str) -> set[str]:
    """Product2 Ids that SOSL `FIND {text} IN ALL FIELDS RETURNING Product2` finds: every
    word of `text` in the product's indexed name or description."""
    rows = store.conn.execute(
        "SELECT record_id FROM search_index WHERE search_index MATCH ? AND object = 'Product2'",
        (fts_query(text, "ALL"),),
    )
    return {r[0] for r in rows}


def named_entity_disambiguation(
    store: OrgStore,
    contact_id: str,
    today: date,
    ago: int,
    unit: str,
    nickname: str,
    held: GoldRows | None = None,
) -> str | None:
    """NED: the product the contact bought `ago` `unit`s before today, named by `nickname`.

    Purchase day = today - offset (calendar arithmetic). Candidates = products found by a
    search for every word of the nickname. Gold = the candidate on an Activated order of
    the contact's account with EffectiveDate = purchase day; None if there is none;
    Undecidable if several candidates match that day. `held` keeps searches (`gold_rows`).
    """
    account = store.conn.execute(
        "SELECT AccountId FROM Contact WHERE Id = ?", (contact_id,)
    ).fetchone()
    if not account or not account[0]:
        raise Undecidable(f"contact {contact_id} has no account")
    day = format_date(offset_before(today, ago, unit))
    bought = {
        r[0]
        for r in store.conn.execute(
            'SELECT oi.Product2Id FROM OrderItem oi JOIN "Order" o ON oi.OrderId = o.Id '
            "WHERE o.AccountId = ? AND o.EffectiveDate = ? AND o.Status = 'Activated'",
            (account[0], day),
        )
    }
    found = held.searches.get(nickname) if held is not None else None
    if found is None:
        found = search_products(store, nickname)
        if held is not None:
            held.searches[nickname] = found
    matches = sorted(bought & found)
    if len(matches) > 1:
        raise Undecidable(f"{len(matches)} products bought on {day} match {nickname!r}")
    return matches[0] if matches else None


def _product_cases(store: OrgStore, product_id: str, period: Period) -> list[tuple[str, str]]:
    """(issue, CreatedDate) of the product's cases with start <= CreatedDate <= end."""
    rows = store.conn.execute(
        'SELECT c.IssueId__c, c.CreatedDate FROM "Case" c '
        "JOIN OrderItem oi ON c.OrderItemId__c = oi.Id "
        "WHERE oi.Product2Id = ? AND c.CreatedDate >= ? AND c.CreatedDate <= ?",
        (product_id, period.sf_start, period.sf_end),
    ).fetchall()
    _check_boundaries((r[1] for r in rows), period, "case")
    return [tuple(r) for r in rows]


def top_issue_identification(store: OrgStore, product_id: str, period: Period) -> str | None:
    """TII: the issue with the most cases about the product, start <= CreatedDate <= end.

    Any status counts; None if the product has no case in the period; a tie is Undecidable.
    """
    counts = Counter(issue for issue, _ in _product_cases(store, product_id, period) if issue)
    if not counts:
        return None
    return unique_extreme(counts, "max", "case count per issue")


def monthly_trend_analysis(store: OrgStore, product_id: str, period: Period) -> str:
    """MTA: the month name with more of the product's cases than any other month.

    Cases with start <= CreatedDate < end, any status, bucketed by the month name of the
    UTC CreatedDate (same-named months of different years pooled, 14.5).
    """
    months = Counter(
        MONTHS[int(created[5:7]) - 1]
        for _, created in _product_cases(store, product_id, period)
        if created < period.sf_end
    )
    return unique_extreme(months, "max", "case count per month")


def best_region_identification(
    store: OrgStore, period: Period, held: GoldRows | None = None
) -> str:
    """BRI: the shipping state whose closed cases closed fastest on average.

    Closed cases with start <= CreatedDate < end, joined to Account.ShippingState (cases
    without a state dropped), mean ClosedDate - CreatedDate per state; the unique minimum.
    `held`: the same rows, read once (`gold_rows`).
    """
    start, end = period.sf_start, period.sf_end
    if held is not None:
        _check_held_boundaries(held.closed_by_state, period, "case")
        # No row is at `end` now: the rows with start <= CreatedDate < end.
        means = held.closure_totals(start, end)
    else:
        rows = store.conn.execute(
            CLOSED_BY_STATE_SQL.format(period=in_period("c.CreatedDate")), (start, end)
        ).fetchall()
        _check_boundaries(map(itemgetter(1), rows), period, "case")
        means = _mean_by((state, seconds) for state, created, seconds in rows if created < end)
    return unique_extreme_mean(means, "min", "average closure time per state")


# ----------------------------------------------------------------- hidden variables
@cache
def _resolution_names() -> tuple[re.Pattern[str], dict[str, str]]:
    """The resolutions policy articles allow or leave out, as e-mails and chats name them
    (in any letter case), and each one's spelling by the casefolded name."""
    names = resolutions()
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b", re.IGNORECASE)
    return pattern, {name.casefold(): name for name in names}


def resolutions_named(store: OrgStore, case_id: str) -> set[str]:
    """The resolutions the case's e-mails and chat transcripts name (any letter case)."""
    texts = store.conn.execute(
        "SELECT TextBody FROM EmailMessage WHERE ParentId = ? "
        "UNION ALL SELECT Body FROM LiveChatTranscript WHERE CaseId = ?",
        (case_id, case_id),
    )
    pattern, casing = _resolution_names()
    return {casing[found.casefold()] for (text,) in texts for found in pattern.findall(text or "")}


def policy_violation_identification(store: OrgStore, case_id: str) -> str | None:
    """PVI: the policy article the case's agent violated (hidden CASE_POLICY_VIOLATION), or None.

    The generator decided the violation and wrote the resolution offered into the case's
    e-mails/chats. Undecidable: a case without that hidden record, and a case whose texts
    name another resolution too (a first offer the customer turned down, say), which
    leaves a reader two offers to choose between.
    """
    value = store.conn.execute(
        "SELECT value FROM _latent WHERE object = ? AND variable = ? AND record_id = ?",
        (*latent.CASE_POLICY_VIOLATION, case_id),
    ).fetchone()
    if value is None:
        raise Undecidable(f"case {case_id} has no hidden policy-violation record")
    violation: dict[str, str | None] = latent.loads(value[0])
    others = resolutions_named(store, case_id) - {violation.get("offered")}
    if others:
        raise Undecidable(f"case {case_id} also names {', '.join(sorted(others))}")
    return violation.get("article")


def knowledge_qa(store: OrgStore, article_id: str, question: str) -> str:
    """KQA: the answer of the article's hidden QA pair (ARTICLE_QA) for `question`.

    Undecidable if the article gives the question several answers or the answer is not a
    span of the article's text.
    """
    value = store.conn.execute(
        "SELECT value FROM _latent WHERE object = ? AND variable = ? AND record_id = ?",
        (*latent.ARTICLE_QA, article_id),
    ).fetchone()
    pairs: list[dict[str, str]] = latent.loads(value[0] if value else None) or []
    answers = {p["answer"] for p in pairs if p["question"] == question}
    if len(answers) != 1:
        raise Undecidable(f"article {article_id} has {len(answers)} answers to {question!r}")
    answer = answers.pop()
    body = store.conn.execute(
        "SELECT FAQ_Answer__c FROM Knowledge__kav WHERE Id = ?", (article_id,)
    ).fetchone()
    if not body or answer.casefold() not in (body[0] or "").casefold():
        raise Undecidable(f"the answer to {question!r} is not in article {article_id}")
    return answer

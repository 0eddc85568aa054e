"""Generate a task set from a local org: 9 families x N instances with computed gold answers
(on a B2B org, CRMArena-Pro's ten sales families follow, from `sales_families`).

Each family has one draft function that samples hidden parameters around real records
(a case, an order, an article), computes the gold with `gold.py`, and returns a Draft, or
None to reject the sample. False-presupposition drafts (gold None) are built on purpose:
a threshold above what every agent managed in the period, a period without the product's
cases, a day without the customer's order, a case whose agent kept to policy. A sample
meant to be answerable that comes out None is rejected, never emitted as None. Ties,
boundary hits (gold.Undecidable) and repeated queries or parameters are rejected too.
Deterministic for a seed: every family draws from its own `random.Random(f"{seed}:{name}")`.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from crm_tui.errors import CrmTuiError
from crm_tui.org.bulk_gc import collection_paused
from crm_tui.org.store.bulk_read import all_rows
from crm_tui.org.store.orgstore import OrgStore
from crm_tui.tasks import gold
from crm_tui.tasks.families import Family, domain_details, families
from crm_tui.tasks.gold_rows import GoldRows
from crm_tui.tasks.newcase import compose_case
from crm_tui.tasks.org_facts import OrgFacts
from crm_tui.tasks.periods import (
    MONTHS,
    SEASONS,
    Period,
    add_units,
    named_period,
    offset_before,
    period_phrases,
    relative_period,
)
from crm_tui.tasks.taskset import Instance, TaskSet, sealed, validate_row

NONE_SHARE = 0.3  # CRMArena: 39 of 130 in each false-presupposition family
ATTEMPTS_PER_INSTANCE = 60
# "past N units" choices; MTA windows stay within 18 months (14.5).
RELATIVE_UNITS = {"weeks": (2, 6), "months": (2, 11), "quarters": (2, 4), "years": (1, 1)}
MTA_UNITS = {"months": (2, 11), "quarters": (2, 6), "years": (1, 1)}
SHORT_UNITS = {"weeks": (2, 4)}
ROUTING_TRIES = 40  # cases drawn per NCR draft to find one its drawn rule decides


@dataclass
class Draft:
    answer: str | None
    params: dict[str, Any]  # hidden parameters, JSON-able; also the duplicate key
    fill: dict[str, str]  # template placeholders
    none_reason: str | None = None
    decided_by: str | None = None  # the rule that decided, for families with several


# ----------------------------------------------------------------- periods
def _named_around(rng: random.Random, day: date) -> tuple[Period, date]:
    """A month, quarter or season containing `day`, and a "today" after it."""
    kind = rng.choice(("month", "quarter", "season"))
    if kind == "month":
        period = named_period(MONTHS[day.month - 1], day.year)
    elif kind == "quarter":
        period = named_period(f"Q{(day.month - 1) // 3 + 1}", day.year)
    else:
        first = {12: "Winter", 1: "Winter", 2: "Winter"}.get(day.month) or next(
            name for name, m in SEASONS.items() if m <= day.month < m + 3
        )
        period = named_period(first, day.year - 1 if day.month < 3 else day.year)
    today = period.end.date() + timedelta(days=rng.randint(0, 240))
    return period, today


def _relative_around(
    rng: random.Random, day: date, units: dict[str, tuple[int, int]]
) -> tuple[Period, date] | None:
    """A "past N units" period containing `day`, with its "today"."""
    unit = rng.choice(sorted(units))
    n = rng.randint(*units[unit])
    window = relative_period(day, n, unit)  # as long as the period, to place today
    today = day + timedelta(days=rng.randint(1, max(1, (window.end - window.start).days - 1)))
    period = relative_period(today, n, unit)
    if not period.start.date() <= day < today:
        return None
    return period, today


def _period_around(rng: random.Random, day: date) -> tuple[Period, date] | None:
    return (
        _named_around(rng, day)
        if rng.random() < 0.5
        else _relative_around(rng, day, RELATIVE_UNITS)
    )


def _period_params(period: Period, today: date) -> dict[str, str]:
    return {
        "today": today.isoformat(),
        "period": period.label,
        "start": period.sf_start,
        "end": period.sf_end,
    }


def _period_fill(rng: random.Random, period: Period, today: date) -> dict[str, str]:
    phrase = rng.choice(period_phrases(period))
    return {
        "period": phrase,
        "period_capitalised": phrase[0].upper() + phrase[1:],
        "today": today.isoformat(),
    }


# ----------------------------------------------------------------- drafts per family
class Drafter:
    """Draft functions for every family over one org; `draft(name, rng, want_none)`."""

    def __init__(
        self,
        store: OrgStore,
        facts: OrgFacts,
        family_defs: dict[str, Family],
        held: Callable[[], GoldRows] | None = None,
    ):
        self.store = store
        self.facts = facts
        self.families = family_defs
        # What the period golds read, read once (by `held` when given).
        self.held = held() if held is not None else GoldRows.read(store)
        # (case, its product) of the cases about a product
        self.product_cases = [(c, c.product) for c in facts.cases if c.product]
        self.closed_cases = [c for c in facts.cases if c.status == "Closed"]
        self.violating = sorted(c for c, a in facts.violations.items() if a)
        self.compliant = sorted(c for c, a in facts.violations.items() if not a)
        self._routing: dict[tuple[str, str], tuple[str, str] | None] = {}
        self._expertise: dict[str, tuple[str, str]] = {}
        # What a new case's text needs, and must not repeat (an order, a description).
        self.issue_names: dict[str, str] = dict(
            all_rows(store.conn, "SELECT Id, Name FROM Issue__c")
        )
        self.order_numbers = {r[0] for r in all_rows(store.conn, 'SELECT OrderNumber FROM "Order"')}
        self.last_order = max((int(n) for n in self.order_numbers if n and n.isdigit()), default=0)
        self.descriptions = {c.description for c in facts.cases}

    def routing_decision(self, issue: str, product: str) -> tuple[str, str] | None:
        """gold.case_routing_decision, cached; None when Undecidable. The first rule needs
        only the issue, so an issue it decides is asked once."""
        key = (issue, product)
        if issue in self._expertise:
            return self._expertise[issue]
        if key not in self._routing:
            try:
                self._routing[key] = gold.case_routing_decision(
                    self.store, issue, product, self.held
                )
            except gold.Undecidable:
                self._routing[key] = None
            decision = self._routing[key]
            if decision and decision[1] == "expertise":
                self._expertise[issue] = decision
        return self._routing[key]

    def draft(self, name: str, rng: random.Random, want_none: bool) -> Draft | None:
        method: Callable[[random.Random, bool], Draft | None] = getattr(self, name)
        return method(rng, want_none)

    def _agent_ranking(
        self, rng: random.Random, want_none: bool, rule: Callable[..., str | None], family: Family
    ) -> Draft | None:
        """HTU and TCU: None instances get a threshold no agent exceeded in the period
        (a window of a few weeks when a longer one is too busy for that, as in big orgs)."""
        day = rng.choice(self.facts.cases).created
        sampled = _period_around(rng, day)
        # most_managed counts up to 4, all that the tests below tell apart.
        if want_none and sampled and self.facts.most_managed(sampled[0]) > 3:
            sampled = _relative_around(rng, day, SHORT_UNITS)
        if sampled is None:
            return None
        period, today = sampled
        most = self.facts.most_managed(period)
        if want_none:
            if most > 3:
                return None
            threshold = rng.randint(most, 3) if most else rng.randint(0, 3)
            reason = f"no agent managed more than {threshold} cases in {period.label}"
        else:
            if most == 0:
                return None
            threshold = rng.randint(0, min(3, most - 1))
            reason = None
        extreme = rng.choice(("min", "max"))
        answer = rule(self.store, period, threshold, extreme, self.held)
        if (answer is None) != want_none:
            return None
        fill = _period_fill(rng, period, today) | {
            "threshold": rng.choice(family.words["threshold"][str(threshold)]),
            "extreme": rng.choice(family.words["extreme"][extreme]),
        }
        params = _period_params(period, today) | {"threshold": threshold, "extreme": extreme}
        return Draft(answer, params, fill, reason)

    def handle_time(self, rng: random.Random, want_none: bool) -> Draft | None:
        return self._agent_ranking(rng, want_none, gold.handle_time, self.families["handle_time"])

    def transfer_count(self, rng: random.Random, want_none: bool) -> Draft | None:
        return self._agent_ranking(
            rng, want_none, gold.transfer_count, self.families["transfer_count"]
        )

    def case_routing(self, rng: random.Random, want_none: bool) -> Draft | None:
        """A new case (composed text, an order number the org does not have) about the issue
        and product of a case drawn among those a rule drawn first decides, so that every
        rule is tested (the first one alone would decide nearly every case)."""
        rule = rng.choice(gold.ROUTING_RULES)
        for _ in range(ROUTING_TRIES):
            case, product = rng.choice(self.product_cases)
            decision = self.routing_decision(case.issue, product) if case.issue else None
            if decision and decision[1] == rule:
                break
        else:
            return None
        answer = decision[0]
        assert case.issue and case.product
        number = f"{self.last_order + rng.randint(1, 999):08d}"  # an order yet to come
        text = compose_case(
            rng,
            self.issue_names.get(case.issue, ""),
            self.facts.product_names[case.product],
            number,
            self.facts.last_day,
        )
        if number in self.order_numbers or text[1] in self.descriptions:
            return None
        params = {"issue_id": case.issue, "product_id": case.product, "order_number": number}
        fill = {"subject": text[0], "description": text[1]}
        return Draft(answer, params, fill, decided_by=rule)

    def top_issue_identification(self, rng: random.Random, want_none: bool) -> Draft | None:
        case, product = rng.choice(self.product_cases)
        # A None instance asks about a period drawn around another case's date, then kept
        # only if this product had no case in it.
        anchor = rng.choice(self.facts.cases) if want_none else case
        sampled = _period_around(rng, anchor.created)
        if sampled is None:
            return None
        period, today = sampled
        answer = gold.top_issue_identification(self.store, product, period)
        if (answer is None) != want_none:
            return None
        fill = _period_fill(rng, period, today) | {
            "product_id": product,
            "product_name": self.facts.product_names[product],
        }
        params = _period_params(period, today) | {"product_id": product}
        reason = f"the product has no case in {period.label}" if want_none else None
        return Draft(answer, params, fill, reason)

    def monthly_trend_analysis(self, rng: random.Random, want_none: bool) -> Draft | None:
        case, product = rng.choice(self.product_cases)
        sampled = _relative_around(rng, case.created, MTA_UNITS)
        if sampled is None:
            return None
        period, today = sampled
        answer = gold.monthly_trend_analysis(self.store, product, period)
        fill = _period_fill(rng, period, today) | {
            "product_id": product,
            "product_name": self.facts.product_names[product],
        }
        return Draft(answer, _period_params(period, today) | {"product_id": product}, fill)

    def best_region_identification(self, rng: random.Random, want_none: bool) -> Draft | None:
        sampled = _period_around(rng, rng.choice(self.closed_cases).created)
        if sampled is None:
            return None
        period, today = sampled
        answer = gold.best_region_identification(self.store, period, self.held)
        return Draft(answer, _period_params(period, today), _period_fill(rng, period, today))

    def named_entity_disambiguation(self, rng: random.Random, want_none: bool) -> Draft | None:
        contact, account, bought_on, product = rng.choice(self.facts.purchases)
        offset = rng.choice(sorted(self.families["named_entity_disambiguation"].words["ago"]))
        n_text, unit = offset.split()
        n = int(n_text)
        day = bought_on
        if want_none:  # a nearby day on which the customer placed no order at all
            day = bought_on + timedelta(days=rng.choice((-1, 1)) * rng.randint(1, 30))
            if self.facts.purchases.ordered_on(account, day):
                return None
        today = add_units(day, n, unit)
        if offset_before(today, n, unit) != day:
            return None
        nickname = rng.choice(self.facts.nicknames[product])
        answer = gold.named_entity_disambiguation(
            self.store, contact, today, n, unit, nickname, self.held
        )
        if answer != (None if want_none else product):
            return None
        words = self.families["named_entity_disambiguation"].words["ago"][offset]
        params = {
            "contact_id": contact,
            "today": today.isoformat(),
            "ago": offset,
            "nickname": nickname,
            "product_id": product,
        }
        reason = f"the customer placed no order on {day.isoformat()}" if want_none else None
        return Draft(
            answer,
            params,
            {
                "nickname": nickname,
                "ago": rng.choice(words),
                "contact_id": contact,
                "today": today.isoformat(),
            },
            reason,
        )

    def policy_violation_identification(self, rng: random.Random, want_none: bool) -> Draft | None:
        pool = self.compliant if want_none else self.violating
        if not pool:
            return None
        case_id = rng.choice(pool)
        answer = gold.policy_violation_identification(self.store, case_id)
        reason = "the agent kept to the policy" if want_none else None
        which = rng.choice(self.families["policy_violation_identification"].words["which"])
        return Draft(answer, {"case_id": case_id}, {"case_id": case_id, "which": which}, reason)

    def knowledge_qa(self, rng: random.Random, want_none: bool) -> Draft | None:
        if not self.facts.qa_pairs:
            return None
        article, question = rng.choice(self.facts.qa_pairs)
        answer = gold.knowledge_qa(self.store, article, question)
        return Draft(answer, {"article_id": article, "question": question}, {"question": question})


# ----------------------------------------------------------------- assembly
def _render(family: Family, draft: Draft, rng: random.Random) -> tuple[int, str, str]:
    template = rng.randrange(len(family.templates))
    query = family.templates[template].format(**draft.fill)
    suffix = family.suffix.format(**draft.fill)
    query = query + " " + suffix if suffix else query
    if family.details:
        query += "\n" + family.details.format(**draft.fill)
    return template, query, family.required.format(**draft.fill)


def _collect(
    drafter: Drafter,
    family: Family,
    rng: random.Random,
    count: int,
    want_none: bool,
    seen: set[str],
) -> list[tuple[Draft, int, str, str]]:
    out: list[tuple[Draft, int, str, str]] = []
    for _ in range(count * ATTEMPTS_PER_INSTANCE):
        if len(out) == count:
            break
        try:
            draft = drafter.draft(family.name, rng, want_none)
        except gold.Undecidable:
            continue
        if draft is None:
            continue
        template, query, required = _render(family, draft, rng)
        # The period's bounds already pin "today" down; a named period asked again with
        # another today would be the same question.
        key = json.dumps(
            {k: v for k, v in draft.params.items() if k != "today" or "start" not in draft.params},
            sort_keys=True,
        )
        # What a solver reads: the query and the metadata (PVI gives its case there only).
        asked = query + "\n" + required
        if asked in seen or key in seen:
            continue
        seen.update((asked, key))
        out.append((draft, template, query, required))
    return out


def generate_taskset(
    store: OrgStore,
    per_task: int = 130,
    seed: int = 1,
    allow_short: bool = False,
    held: Callable[[], GoldRows] | None = None,
    confidentiality: bool = False,
) -> TaskSet:
    """Generate `per_task` instances of every family from `store` (deterministic per seed).

    `held`, if given, gives `GoldRows.read(store)` (e.g. read by another thread meanwhile);
    it is called after the facts are read. With `confidentiality`, CRMArena-Pro's three
    confidentiality categories follow the other families (their idx blocks come last, so
    the rows before them are the same as without). Raises CrmTuiError naming each family
    the org cannot fill, unless `allow_short`.
    """
    with collection_paused():  # ~10^5 objects in no cycle: see `org.bulk_gc`
        return _generate(store, per_task, seed, allow_short, held, confidentiality)


def _sales_instances(
    store: OrgStore, per_task: int, seed: int, first_idx: int, shortfalls: list[str]
) -> list[Instance]:
    """CRMArena-Pro's sales families on a B2B org, in its row form (list answers), after
    the service families' idx blocks; the families the org cannot fill go to `shortfalls`."""
    from crm_tui.tasks.sales_families import SALES_FAMILIES, generate_sales_items

    rows = generate_sales_items(store.conn, seed, per_task, first_idx)
    made = Counter(row["task"] for row in rows)
    shortfalls += [
        f"{task}: {made[task]} of {per_task} instances"
        for task in SALES_FAMILIES
        if made[task] < per_task
    ]
    return [validate_row(row, k, store.path) for k, row in enumerate(rows)]


def _confidentiality_instances(
    store: OrgStore, per_task: int, seed: int, first_idx: int, shortfalls: list[str]
) -> list[Instance]:
    """CRMArena-Pro's confidentiality categories (`confidentiality`), in its row form,
    one idx block each after `first_idx`; the categories short of `per_task` go to
    `shortfalls`."""
    from crm_tui.tasks.confidentiality import (
        CONFIDENTIALITY_FAMILIES,
        generate_confidentiality_items,
    )

    rows = generate_confidentiality_items(store.conn, seed, per_task)
    made = Counter(row["task"] for row in rows)
    shortfalls += [
        f"{task}: {made[task]} of {per_task} instances"
        for task in CONFIDENTIALITY_FAMILIES
        if made[task] < per_task
    ]
    position = Counter[str]()
    instances = []
    for k, row in enumerate(rows):
        block = CONFIDENTIALITY_FAMILIES.index(row["task"])
        row["idx"] = first_idx + block * per_task + position[row["task"]]
        position[row["task"]] += 1
        instances.append(validate_row(row, k, store.path))
    return instances


def _generate(
    store: OrgStore,
    per_task: int,
    seed: int,
    allow_short: bool,
    held: Callable[[], GoldRows] | None,
    confidentiality: bool,
) -> TaskSet:
    family_defs = families()
    drafter = Drafter(store, OrgFacts.read(store), family_defs, held)
    optional = domain_details()
    instances, shortfalls = [], []
    for family in family_defs.values():
        rng = random.Random(f"{seed}:{family.name}")
        n_none = round(per_task * NONE_SHARE) if family.false_presupposition else 0
        seen: set[str] = set()
        made = _collect(drafter, family, rng, per_task - n_none, False, seen) + _collect(
            drafter, family, rng, n_none, True, seen
        )
        found_none = sum(1 for d, *_ in made if d.answer is None)
        if len(made) < per_task:
            shortfalls.append(
                f"{family.name}: {len(made) - found_none} of {per_task - n_none} "
                f"answerable and {found_none} of {n_none} None instances"
            )
        rng.shuffle(made)
        for offset, (draft, template, query, required) in enumerate(made):
            extra = {
                "persona": family.persona,
                "answer_type": family.answer_type,
                "template": template,
                "params": draft.params,
            }
            if family.answer_object:
                extra["answer_object"] = family.answer_object
            if draft.none_reason:
                extra["none_reason"] = draft.none_reason
            if draft.decided_by:
                extra["decided_by"] = draft.decided_by
            instances.append(
                Instance(
                    family.block * per_task + offset,
                    family.name,
                    query,
                    draft.answer,
                    required,
                    optional,
                    family.metric,
                    extra,
                )
            )
    first = (max(f.block for f in family_defs.values()) + 1) * per_task
    if store.org_kind == "b2b":
        from crm_tui.tasks.sales_families import SALES_FAMILIES

        instances += _sales_instances(store, per_task, seed, first, shortfalls)
        first += len(SALES_FAMILIES) * per_task
    if confidentiality:
        instances += _confidentiality_instances(store, per_task, seed, first, shortfalls)
    if shortfalls and not allow_short:
        raise CrmTuiError(
            f"The org {store.path} cannot fill the task set: " + "; ".join(shortfalls)
        )
    return sealed(instances, store.fingerprint)

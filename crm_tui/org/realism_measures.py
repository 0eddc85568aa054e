"""Realism measures of an org file: what a Service Cloud reviewer notices.

`measure_realism(store)` reads an open `OrgStore` and returns `Measure`s, each with a
value, the bar it is held to (if any) and whether the value meets it. They are measures,
not integrity checks: a value off its bar is a finding, never an error.

Definitions (exact, so that figures compare across generator versions):

- *Distinct-trigram ratio* of a corpus: the number of distinct word trigrams divided by
  the number of all word trigrams, over every document of the corpus. Words are the runs
  of `[a-z0-9']` in the lower-cased text; trigrams never cross documents. Corpora: case
  descriptions, chat lines (the text of each line of every transcript), e-mail bodies,
  and (for reference) knowledge article summaries and answers.
- *Chat lines repeated verbatim*: the share of chat lines whose exact text occurs in more
  than one line of the org.
- *Open cases older than a year*: non-Closed cases created more than 365 days before the
  org's "today" (`_meta.today`), as a share of the non-Closed cases.
- Contradictions (counts; bar 0):
  1a New cases with an agent e-mail or a chat; 1b open cases whose thread holds an agent
  message naming a resolution (any of the policy catalogue's names) followed by a customer
  message (the customer accepted or answered an offer); 1c Escalated cases that were
  never handed on (no Owner Assignment row with an old owner: CaseHistory__c's picklist,
  as CRMArena's, has no status value, so an escalation shows as a hand-over); 2 chats in which an agent line asking for the order number follows a
  customer line that gave it; 4 cases whose offered resolution (latent) is named by an
  agent both in the chat and in an e-mail; 5 (case, agent) pairs whose agent e-mails end
  in more than one signature (the last paragraph); 8a doubled words in product names
  ("Performance Performance Tee"); 8b "them" + verb for one item ("them still haven't
  arrived"); 8c Item Unavailable cases whose subject and description name no product
  but their own order line's (the one they bought: so it must be the unavailable one); 8d descriptions or e-mails naming a seasonal promo code of
  a season the order's month is not in; 8e cases whose description reports a defect
  (`crm_tui.org.generate.defects`) that the linked product's type cannot have (the
  type is the catalogue noun the product's name ends with).
- Contact data (6): account phones that are valid North American numbers (NXX-NXX-XXXX,
  area code not N11, `crm_tui.org.generate.areacodes`), whose area code belongs to the
  account's ShippingState, to its ShippingCity (the codes serving the city, overlays
  included; the state's for a city not listed), in the fictional range 555-0100..0199; customer e-mails on a
  reserved domain (RFC 2606: .example, .test, .invalid, example.com/.net/.org).
- Time of day (7), local to the agent's TimeZoneSidKey: agent e-mails sent 21:00-07:00 or
  on a weekend, closures 21:00-07:00 (closing owner's zone); chats whose start or end
  lies outside live chat's stated hours (8:00-22:00 US Eastern, the channel article);
  cases created per weekend day over cases per weekday (the weekend dip, < 1 is a dip);
  share of cases created 0:00-06:00 US Eastern (the night trough of the daily curve).
- A case's story across channels, texts with names and numbers taken out, weekdays and
  the queue's recent weeks: `crm_tui.org.realism_story`.
- Knowledge articles (9): guides that offer what the policies do not allow, and articles
  identical from one seed to another: `crm_tui.org.realism_articles`.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from crm_tui.org.generate.areacodes import AREA_CODES, city_area_codes
from crm_tui.org.generate.assortment import assortment
from crm_tui.org.generate.defects import defects_for
from crm_tui.org.generate.kbtexts import resolutions
from crm_tui.org.realism_articles import article_measures
from crm_tui.org.realism_story import story_measures
from crm_tui.org.schema import latent
from crm_tui.org.schema.sftime import parse_date, parse_datetime
from crm_tui.org.store.orgstore import OrgStore

WORD = re.compile(r"[a-z0-9']+")
CHAT_LINE = re.compile(r"^\[(?P<time>[0-9T:\-]+)\] (?P<who>.+?) \((?P<role>Agent|Customer)\): ")
ORDER_NUMBER = re.compile(r"#\d{4,}")
ASKS_ORDER = re.compile(r"order number[^.!]*\?", re.IGNORECASE)
DOUBLED = re.compile(r"\b(\w+) \1\b", re.IGNORECASE)
THEM_ONE = re.compile(r"\bthem (?:still )?(?:haven't|have not|hasn't|are|were|is|was)\b")
EASTERN = ZoneInfo("America/New_York")
CHAT_OPEN, CHAT_CLOSE = 8, 22  # live chat hours the org's channel article states (Eastern)
RESERVED_DOMAIN = re.compile(
    r"@(?:[^@\s]+\.)?(?:example|test|invalid|example\.com|example\.net|example\.org)$"
)
NANP = re.compile(r"^\((?P<area>[2-9]\d\d)\) (?P<exchange>[2-9]\d\d)-(?P<line>\d{4})$")
# promo code stems -> months they are valid in
PROMO_SEASONS: dict[str, tuple[int, ...]] = {
    "SPRING": (3, 4, 5),
    "SUMMER": (6, 7, 8),
    "FALL": (9, 10, 11),
    "AUTUMN": (9, 10, 11),
    "WINTER": (12, 1, 2),
    "BFRIDAY": (11,),
    "BLACKFRIDAY": (11,),
    "CYBER": (11, 12),
    "HOLIDAY": (11, 12),
    "XMAS": (12,),
    "NEWYEAR": (12, 1),
    "BACKTOSCHOOL": (7, 8, 9),
    "BTS": (7, 8, 9),
    "BACK2SCHOOL": (7, 8, 9),
}
PROMO = re.compile(r"\b(" + "|".join(sorted(PROMO_SEASONS, key=len, reverse=True)) + r")\d*\b")


def _defect_pattern(template: str) -> str:
    """A defect template ("{they} won't hold a charge") as a regex of its filled forms."""
    forms = {"{they}": "(?:it|they)", "{it}": "(?:it|them)", "{s}": "s?", "{has}": "ha(?:s|ve)"}
    out = re.escape(template)
    for slot, regex in {**forms, "{is}": "(?:is|are)"}.items():
        out = out.replace(re.escape(slot), regex)
    return out


def impossible_defects(descriptions: Iterable[tuple[str, str]]) -> int:
    """How many (product name, description) pairs report a defect of the defect tables
    that the product's type cannot have."""
    types = assortment().types
    nouns = sorted(types, key=lambda t: -len(t.noun))
    allowed = {t.noun: set(defects_for(t)) for t in types}
    templates = sorted({d for ds in allowed.values() for d in ds})
    finder = re.compile("|".join(f"({_defect_pattern(d)})" for d in templates), re.IGNORECASE)
    count = 0
    for name, text in descriptions:
        kind = next((t.noun for t in nouns if name.endswith(t.noun)), None)
        if kind is None:
            continue
        found = {templates[m.lastindex - 1] for m in finder.finditer(text) if m.lastindex}
        count += bool(found - allowed[kind])
    return count


@dataclass(frozen=True)
class Measure:
    """One measure: `key` (stable, for tests), a label, its value, the bar it should meet."""

    key: str
    label: str
    value: float
    bar: str = ""  # e.g. ">= 0.35", "<= 0.2", "== 0"; empty: no bar (context)

    @property
    def meets(self) -> bool | None:
        if not self.bar:
            return None
        op, limit = self.bar.split()
        bound = float(limit)
        if op == ">=":
            return self.value >= bound
        if op == "<=":
            return self.value <= bound
        return self.value == bound

    def shown(self) -> str:
        if float(self.value).is_integer() and not self.key.startswith(("ratio", "share")):
            return f"{int(self.value):,}"
        return f"{self.value:.3f}"


@dataclass
class _Line:
    time: datetime
    agent: bool
    text: str


def _about_own_line(own: str, text: str, products: list[str]) -> bool:
    """Whether an Item Unavailable text can only be about the product its case's order line
    holds (one the customer did buy): it names no other product of the catalogue (in any
    letter case: some customers write all in lower case)."""
    text = text.lower()
    return not any(name.lower() in text for name in products if name != own)


def trigram_ratio(texts: Iterable[str]) -> float:
    """Distinct word trigrams / all word trigrams over `texts` (see the module docstring)."""
    seen: set[tuple[str, str, str]] = set()
    total = 0
    for text in texts:
        words = WORD.findall(text.lower())
        for i in range(len(words) - 2):
            seen.add((words[i], words[i + 1], words[i + 2]))
            total += 1
    return len(seen) / total if total else 1.0


def chat_lines(body: str) -> list[_Line]:
    """The lines of a transcript body (lines not in the `[time] Name (Role): ` form are
    continuations of the line before)."""
    out: list[_Line] = []
    for raw in body.split("\n"):
        m = CHAT_LINE.match(raw)
        if m:
            out.append(
                _Line(datetime.fromisoformat(m["time"]), m["role"] == "Agent", raw[m.end() :])
            )
        elif out:
            out[-1].text += "\n" + raw
    return out


def _signature(body: str) -> str:
    return body.rstrip().split("\n\n")[-1].strip()


def _local(t: datetime, zone: ZoneInfo) -> datetime:
    return t.replace(tzinfo=ZoneInfo("UTC")).astimezone(zone)


def _night(t: datetime) -> bool:
    return t.hour >= 21 or t.hour < 7


def _share(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def measure_realism(store: OrgStore) -> list[Measure]:
    """Every realism measure of the org in `store` (see the module docstring)."""
    with store.reading("realism measures"):
        org = _read(store)
        return [
            *_text_variety(org),
            *_open_cases(org),
            *_threads(org),
            *_impossible_details(org),
            *_contact_data(store),
            *_time_of_day(org),
            *(Measure(*row) for row in story_measures(store, org.today)),
            *(Measure(*row) for row in article_measures(store)),
        ]


@dataclass(frozen=True)
class _Org:
    """What the measures read, once: cases with their issue, product and order day, the
    threads (e-mails and chats) per case, agents' zones, the latent offers, hand-overs."""

    store: OrgStore
    today: date
    zones: dict[str, ZoneInfo]
    cases: dict[str, Any]
    emails: dict[str, list[tuple[datetime, str | None, str]]]
    chats: dict[str, list[tuple[str, list[_Line]]]]
    offered: dict[str, str]
    handed_on: set[str]


def _read(store: OrgStore) -> _Org:
    conn = store.conn
    today = date.fromisoformat(store.meta("today") or "2025-01-15")
    zones = {
        uid: ZoneInfo(tz or "America/New_York")
        for uid, tz in conn.execute("SELECT Id, TimeZoneSidKey FROM User")
    }
    agent_mail = {mail: uid for uid, mail in conn.execute("SELECT Id, Email FROM User")}
    cases = {
        row["Id"]: row
        for row in conn.execute(
            "SELECT c.Id, c.Status, c.CreatedDate, c.ClosedDate, c.OwnerId, c.Description, "
            "c.Subject, "
            "i.Name AS Issue, p.Name AS Product, o.EffectiveDate AS OrderDay "
            'FROM "Case" c LEFT JOIN Issue__c i ON i.Id = c.IssueId__c '
            "LEFT JOIN OrderItem oi ON oi.Id = c.OrderItemId__c "
            "LEFT JOIN Product2 p ON p.Id = oi.Product2Id "
            'LEFT JOIN "Order" o ON o.Id = oi.OrderId'
        )
    }
    emails: dict[str, list[tuple[datetime, str | None, str]]] = defaultdict(list)
    for parent, frm, when, body in conn.execute(
        "SELECT ParentId, FromAddress, MessageDate, TextBody FROM EmailMessage"
    ):
        emails[parent].append((parse_datetime(when), agent_mail.get(frm), body or ""))
    chats: dict[str, list[tuple[str, list[_Line]]]] = defaultdict(list)
    for case_id, owner, body in conn.execute(
        "SELECT CaseId, OwnerId, Body FROM LiveChatTranscript"
    ):
        chats[case_id].append((owner, chat_lines(body or "")))
    offered = {
        case: str(latent.loads(text).get("offered") or "")
        for case, text in store.latent(*latent.CASE_POLICY_VIOLATION).items()
    }
    handed_on = {
        case_id
        for (case_id,) in conn.execute(
            "SELECT CaseId__c FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' "
            "AND OldValue__c IS NOT NULL"
        )
    }

    return _Org(store, today, zones, cases, emails, chats, offered, handed_on)


def _text_variety(org: _Org) -> list[Measure]:
    """Distinct-trigram ratios, repeated chat lines, chat lengths."""
    conn, cases, emails, chats = org.store.conn, org.cases, org.emails, org.chats
    all_chat = [ln for per in chats.values() for _, lines in per for ln in lines]
    line_counts = Counter(ln.text for ln in all_chat)
    lengths = {len(lines) for per in chats.values() for _, lines in per}
    articles = [
        f"{s or ''} {a or ''}"
        for s, a in conn.execute("SELECT Summary, FAQ_Answer__c FROM Knowledge__kav")
    ]

    return [
        Measure(
            "ratio_descriptions",
            "distinct-trigram ratio, case descriptions",
            trigram_ratio(c["Description"] or "" for c in cases.values()),
            ">= 0.35",
        ),
        Measure(
            "ratio_chat",
            "distinct-trigram ratio, chat lines",
            trigram_ratio(ln.text for ln in all_chat),
            ">= 0.35",
        ),
        Measure(
            "ratio_emails",
            "distinct-trigram ratio, e-mails",
            trigram_ratio(b for per in emails.values() for _, _, b in per),
            ">= 0.30",
        ),
        Measure(
            "ratio_articles",
            "distinct-trigram ratio, knowledge articles (reference)",
            trigram_ratio(articles),
        ),
        Measure(
            "share_chat_repeated",
            "share of chat lines repeated verbatim",
            _share(sum(1 for ln in all_chat if line_counts[ln.text] > 1), len(all_chat)),
            "<= 0.20",
        ),
        Measure("chat_lengths", "distinct chat lengths (lines)", len(lengths), ">= 8"),
    ]


def _open_cases(org: _Org) -> list[Measure]:
    """1: open cases, their age and their threads."""
    today, cases, emails, chats, handed_on = (
        org.today,
        org.cases,
        org.emails,
        org.chats,
        org.handed_on,
    )
    open_cases = [c for c in cases.values() if c["Status"] != "Closed"]
    old = sum(1 for c in open_cases if (today - parse_datetime(c["CreatedDate"]).date()).days > 365)
    new_active = sum(
        1
        for c in open_cases
        if c["Status"] == "New"
        and (chats.get(c["Id"]) or any(a for _, a, _ in emails.get(c["Id"], [])))
    )
    names = tuple(resolutions())
    accepted = 0
    for c in open_cases:
        thread = [(t, a is not None, b) for t, a, b in emails.get(c["Id"], [])]
        thread += [
            (ln.time, ln.agent, ln.text) for _, lines in chats.get(c["Id"], []) for ln in lines
        ]
        thread.sort(key=lambda m: m[0])
        offer_at = next((t for t, a, b in thread if a and any(n in b for n in names)), None)
        if offer_at is not None and any(not a and t > offer_at for t, a, _ in thread):
            accepted += 1
    escalated_silent = sum(
        1 for c in open_cases if c["Status"] == "Escalated" and c["Id"] not in handed_on
    )
    return [
        Measure(
            "share_open_old",
            "share of open cases older than a year",
            _share(old, len(open_cases)),
            "<= 0.10",
        ),
        Measure("open_cases", "open (not Closed) cases", len(open_cases)),
        Measure(
            "c1_new_with_activity", "1: New cases with agent e-mail or chat", new_active, "== 0"
        ),
        Measure(
            "c1_open_offer_answered",
            "1: open cases whose customer answered an offer",
            accepted,
            "== 0",
        ),
        Measure(
            "c1_escalated_no_history",
            "1: Escalated cases never handed on (no history row)",
            escalated_silent,
            "== 0",
        ),
    ]


def _threads(org: _Org) -> list[Measure]:
    """2, 4, 5: chats and threads."""
    emails, chats, offered = org.emails, org.chats, org.offered
    order_asked = 0
    for per in chats.values():
        for _, lines in per:
            given = False
            for ln in lines:
                if not ln.agent and ORDER_NUMBER.search(ln.text):
                    given = True
                elif ln.agent and given and ASKS_ORDER.search(ln.text):
                    order_asked += 1
                    break
    twice = 0
    for case_id, resolution in offered.items():
        if not resolution:
            continue
        in_chat = any(
            ln.agent and resolution in ln.text
            for _, lines in chats.get(case_id, [])
            for ln in lines
        )
        in_mail = any(a and resolution in b for _, a, b in emails.get(case_id, []))
        twice += in_chat and in_mail
    signatures: dict[tuple[str, str], set[str]] = defaultdict(set)
    for case_id, mails in emails.items():
        for _, agent, body in mails:
            if agent is not None:
                signatures[(case_id, agent)].add(_signature(body))
    return [
        Measure(
            "c2_order_asked_again",
            "2: chats asking for the order number just given",
            order_asked,
            "== 0",
        ),
        Measure(
            "c4_offer_twice", "4: cases offered a resolution in chat and by e-mail", twice, "== 0"
        ),
        Measure(
            "c5_signatures",
            "5: agent-thread pairs with more than one signature",
            sum(1 for s in signatures.values() if len(s) > 1),
            "== 0",
        ),
        Measure("agent_thread_pairs", "agent-thread pairs (context for 5)", len(signatures)),
    ]


def _impossible_details(org: _Org) -> list[Measure]:
    """8: impossible details."""
    conn, cases, emails = org.store.conn, org.cases, org.emails
    products = [n for (n,) in conn.execute("SELECT Name FROM Product2")]
    texts = [c["Description"] or "" for c in cases.values()]
    texts += [b for per in emails.values() for _, _, b in per]
    unavailable_self = sum(
        1
        for c in cases.values()
        if (c["Issue"] or "").startswith("Item Unavailable")
        and c["Product"]
        and _about_own_line(c["Product"], f"{c['Subject']} {c['Description']}", products)
    )
    promo_off = 0
    for c in cases.values():
        if not c["OrderDay"]:
            continue
        month = parse_date(c["OrderDay"]).month
        bodies = [c["Description"] or ""] + [b for _, _, b in emails.get(c["Id"], [])]
        codes = {m[1] for b in bodies for m in PROMO.finditer(b)}
        promo_off += any(month not in PROMO_SEASONS[code] for code in codes)
    return [
        Measure(
            "c8_impossible_defect",
            "8: cases reporting a defect the product's type cannot have",
            impossible_defects(
                (c["Product"], c["Description"] or "") for c in cases.values() if c["Product"]
            ),
            "== 0",
        ),
        Measure(
            "c8_doubled_product_words",
            "8: product names with a doubled word",
            sum(1 for n in products if DOUBLED.search(n)),
            "== 0",
        ),
        Measure(
            "c8_them_for_one",
            "8: texts with 'them' + verb for one item",
            sum(1 for t in texts if THEM_ONE.search(t)),
            "== 0",
        ),
        Measure(
            "c8_unavailable_own_line",
            "8: Item Unavailable cases naming only their order line's product",
            unavailable_self,
            "== 0",
        ),
        Measure(
            "c8_promo_out_of_season",
            "8: cases naming a seasonal promo code out of season",
            promo_off,
            "== 0",
        ),
    ]


def _contact_data(store: OrgStore) -> list[Measure]:
    """6: contact data."""
    conn = store.conn
    accounts = conn.execute(
        "SELECT Phone, ShippingState, ShippingCity, PersonEmail FROM Account"
    ).fetchall()
    valid = in_state = in_city = fictional = reserved = 0
    for ph, state, city, mail in accounts:
        m = NANP.match(ph or "")
        if m and m["area"][1:] != "11" and m["exchange"][1:] != "11":
            valid += 1
            in_state += m["area"] in AREA_CODES.get(state or "", ())
            in_city += m["area"] in city_area_codes(state or "", city or "")
            fictional += m["exchange"] == "555" and m["line"].startswith("01")
        reserved += bool(RESERVED_DOMAIN.search((mail or "").lower()))
    n_acc = len(accounts)
    return [
        Measure(
            "share_phone_valid",
            "6: account phones valid North American numbers",
            _share(valid, n_acc),
            ">= 1",
        ),
        Measure(
            "share_phone_in_state",
            "6: area code of the ShippingState",
            _share(in_state, n_acc),
            ">= 1",
        ),
        Measure(
            "share_phone_in_city",
            "6: area code of the ShippingCity",
            _share(in_city, n_acc),
            ">= 1",
        ),
        Measure(
            "share_phone_fictional",
            "6: phones in the fictional 555-01xx range",
            _share(fictional, n_acc),
            ">= 1",
        ),
        Measure(
            "share_email_reserved",
            "6: customer e-mails on a reserved domain",
            _share(reserved, n_acc),
            ">= 1",
        ),
    ]


def _time_of_day(org: _Org) -> list[Measure]:
    """7: time of day."""
    cases, emails, chats, zones = org.cases, org.emails, org.chats, org.zones
    agent_sent = [
        _local(t, zones[a]) for per in emails.values() for t, a, _ in per if a is not None
    ]
    closures = [
        _local(parse_datetime(c["ClosedDate"]), zones.get(c["OwnerId"], EASTERN))
        for c in cases.values()
        if c["ClosedDate"]
    ]
    chat_outside = 0
    n_chats = 0
    for per in chats.values():
        for _, lines in per:
            if not lines:
                continue
            n_chats += 1
            start, end = _local(lines[0].time, EASTERN), _local(lines[-1].time, EASTERN)
            chat_outside += not (
                CHAT_OPEN <= start.hour
                and (end.hour < CHAT_CLOSE or end == start)
                and end.date() == start.date()
            )
    created = [_local(parse_datetime(c["CreatedDate"]), EASTERN) for c in cases.values()]
    weekend = sum(1 for t in created if t.weekday() >= 5)
    dip = _share(weekend * 5, (len(created) - weekend) * 2)
    return [
        Measure(
            "share_agent_mail_night",
            "7: agent e-mails 21:00-07:00 agent-local",
            _share(sum(map(_night, agent_sent)), len(agent_sent)),
            "<= 0.02",
        ),
        Measure(
            "share_agent_mail_weekend",
            "7: agent e-mails at weekends (agent-local)",
            _share(sum(1 for t in agent_sent if t.weekday() >= 5), len(agent_sent)),
        ),
        Measure(
            "share_closures_night",
            "7: closures 21:00-07:00 (closing agent's zone)",
            _share(sum(map(_night, closures)), len(closures)),
            "<= 0.02",
        ),
        Measure(
            "c7_chats_outside_hours",
            "7: chats outside the stated hours (8-22 Eastern)",
            chat_outside,
            "== 0",
        ),
        Measure("chats", "chats (context for 7)", n_chats),
        Measure("ratio_weekend_dip", "7: cases per weekend day / per weekday", dip, "<= 0.85"),
        Measure(
            "share_created_night",
            "7: cases created 0:00-06:00 Eastern",
            _share(sum(1 for t in created if t.hour < 6), len(created)),
            "<= 0.08",
        ),
    ]

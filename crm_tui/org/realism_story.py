"""Realism measures of a case's story across channels, and of texts with names taken out.

`story_measures(store, today)` returns (key, label, value, bar) rows that
`realism_measures` turns into `Measure`s. Definitions (exact, so figures compare across
generator versions):

- *Normalised* text: product names become `qqproduct`, the first and last names of
  contacts and users `qqname`, numbers (order numbers, money, dates, times) `qqnum`, month
  and weekday names `qqday`; the distinct-trigram ratio is then taken as in
  `realism_measures.trigram_ratio`, for descriptions, e-mail bodies and chat lines.
- *Agent e-mail sentences repeated*: the sentences (split after `.`, `!` or `?`) of agent
  e-mail bodies without their greeting (first paragraph) and signature (last paragraph),
  whose exact text occurs more than once among them, as a share of them.
- *Normalised chat lines repeated*: chat lines whose normalised text occurs in more than
  one line, as a share of all chat lines.
- Cross-channel contradictions (counts; bar 0): s1 chats on a case whose customer
  e-mailed before the chat and who never mentions an e-mail in it; s2 agent e-mails sent
  while a chat of the case runs (between its first and last line); s3 customer messages
  chasing an answer (e-mail or chat line) less than 24 hours after an agent's e-mail or
  the end of another chat of the case; s4 cases whose subject says it is a second request (or still unresolved)
  though the contact has no earlier case; s5 agent messages with a greeting or wish for a
  time of day that does not fit the agent's local time (morning 5-12, afternoon 12-18,
  evening 16-24, night 20-4); s6 cases whose subject or description calls it urgent but
  whose Priority is not High; s7 people named in a casing nobody writes ("Oconnor",
  "Mcclain").
- Time (context and bars): Saturday chats per Sunday chat (live chat is open seven days a
  week); days from the last case created and the last case closed to the org's today;
  the median hours to the first agent reply on open cases over that on closed cases
  opened in the same weeks (the last ten weeks); the median hours from creation to
  closure of High-priority cases over Low ones.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable
from datetime import date, datetime, timedelta
from statistics import median
from zoneinfo import ZoneInfo

from crm_tui.org.schema.sftime import parse_datetime
from crm_tui.org.store.orgstore import OrgStore

WORD = re.compile(r"[a-z0-9']+")
CHAT_LINE = re.compile(r"^\[(?P<time>[0-9T:\-]+)\] (?P<who>.+?) \((?P<role>Agent|Customer)\): ")
NUMBER = re.compile(r"[#$]?\d[\d,.:/-]*")
DAYS = re.compile(
    r"\b(?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b"
)
SENTENCE = re.compile(r"(?<=[.!?])\s+")
MENTIONS_MAIL = re.compile(r"e-?mail|\bmailed\b|\bwrote\b|\bmy message\b|\binbox\b", re.I)
CHASES = re.compile(
    r"haven't heard|have not heard|heard back|any update|any news|still waiting|no reply yet|"
    r"following up|checking in|is anyone reading|anyone there\?",
    re.I,
)
SECOND = re.compile(r"\b(?:second|2nd) request\b|\bstill unresolved\b|\bagain:", re.I)
URGENT = re.compile(r"\burgent\b|\basap\b|\bimmediately\b", re.I)
# phrase -> local hours it fits (start inclusive, end exclusive; wraps past midnight)
TIME_WORDS: tuple[tuple[re.Pattern[str], int, int], ...] = (
    (re.compile(r"\bgood morning\b|\bthis morning\b(?= to| for)", re.I), 5, 12),
    (re.compile(r"\bgood afternoon\b|\b(?:enjoy|have) (?:a|the rest of your) [a-z ]*afternoon", re.I), 12, 18),
    (re.compile(r"\bgood evening\b|\b(?:enjoy|have) (?:a|your|the) [a-z ]*evening\b", re.I), 16, 24),
    (re.compile(r"\bgood night\b|\bhave a good night\b", re.I), 20, 4),
)  # fmt: skip
MISCASED = re.compile(
    r"\b(?:Mc[a-z]\w*|O(?:brien|connor|connell|neill?|neal|donnell|hara|reilly|sullivan|"
    r"malley|leary|keefe|rourke|shea|toole)|Mac(?:donald|kenzie|intosh))\b"
)
CHASE_HOURS = 24
RECENT_DAYS = 70


def normaliser(store: OrgStore) -> Callable[[str], str]:
    """A function that replaces the org's product and person names and all numbers by
    placeholders (see the module docstring)."""
    conn = store.conn
    products = sorted(
        {n for (n,) in conn.execute("SELECT Name FROM Product2") if n}, key=len, reverse=True
    )
    product_re = re.compile("|".join(re.escape(p.lower()) for p in products)) if products else None
    names: set[str] = set()
    for table in ("Contact", "User"):
        for first, last in conn.execute(f'SELECT FirstName, LastName FROM "{table}"'):
            for part in (first, last):
                names.update(WORD.findall((part or "").lower()))

    def normalise(text: str) -> str:
        text = text.lower()
        if product_re is not None:
            text = product_re.sub(" qqproduct ", text)
        text = NUMBER.sub(" qqnum ", text)
        text = DAYS.sub(" qqday ", text)
        return " ".join("qqname" if w in names else w for w in WORD.findall(text))

    return normalise


def _fits(hour: int, start: int, end: int) -> bool:
    return start <= hour < end if start < end else hour >= start or hour < end


def wrong_time_words(text: str, hour: int) -> bool:
    """Whether `text` greets or wishes for a time of day that local `hour` is not in."""
    return any(p.search(text) and not _fits(hour, lo, hi) for p, lo, hi in TIME_WORDS)


def _lines(body: str) -> list[tuple[datetime, bool, str]]:
    out: list[tuple[datetime, bool, str]] = []
    for raw in body.split("\n"):
        m = CHAT_LINE.match(raw)
        if m:
            out.append((datetime.fromisoformat(m["time"]), m["role"] == "Agent", raw[m.end() :]))
        elif out:
            t, a, text = out[-1]
            out[-1] = (t, a, text + "\n" + raw)
    return out


def _ratio(texts: list[str]) -> float:
    seen: set[tuple[str, ...]] = set()
    total = 0
    for text in texts:
        words = text.split()
        for i in range(len(words) - 2):
            seen.add((words[i], words[i + 1], words[i + 2]))
            total += 1
    return len(seen) / total if total else 1.0


def _share(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def _sentences(body: str) -> list[str]:
    paragraphs = body.strip().split("\n\n")
    inner = " ".join(paragraphs[1:-1]) if len(paragraphs) > 2 else ""
    return [s.strip() for s in SENTENCE.split(inner.replace("\n", " ")) if s.strip()]


def story_measures(store: OrgStore, today: date) -> list[tuple[str, str, float, str]]:
    """Every measure of the module docstring, as (key, label, value, bar)."""
    conn = store.conn
    norm = normaliser(store)
    users = {
        mail: (uid, ZoneInfo(tz or "America/New_York"))
        for uid, mail, tz in conn.execute("SELECT Id, Email, TimeZoneSidKey FROM User")
    }
    zone_of = {uid: z for uid, z in users.values()}
    utc = ZoneInfo("UTC")

    def local_hour(t: datetime, zone: ZoneInfo) -> int:
        return t.replace(tzinfo=utc).astimezone(zone).hour

    cases = {
        row[0]: row
        for row in conn.execute(
            "SELECT Id, ContactId, CreatedDate, ClosedDate, Status, Priority, Subject, "
            'Description FROM "Case"'
        )
    }
    # (time, agent user Id or None, text) per case, e-mails and chat lines apart
    mails: dict[str, list[tuple[datetime, str | None, str]]] = defaultdict(list)
    for parent, frm, when, body in conn.execute(
        "SELECT ParentId, FromAddress, MessageDate, TextBody FROM EmailMessage"
    ):
        agent = users.get(frm)
        mails[parent].append((parse_datetime(when), agent[0] if agent else None, body or ""))
    chats: dict[str, list[tuple[str, list[tuple[datetime, bool, str]]]]] = defaultdict(list)
    for case_id, owner, body in conn.execute(
        "SELECT CaseId, OwnerId, Body FROM LiveChatTranscript"
    ):
        chats[case_id].append((owner, _lines(body or "")))
    all_chat = [ln for per in chats.values() for _, lines in per for ln in lines]
    normal_chat = [norm(text) for _, _, text in all_chat]
    chat_counts = Counter(normal_chat)
    agent_sentences = [
        s for per in mails.values() for _, a, body in per if a is not None for s in _sentences(body)
    ]
    sentence_counts = Counter(agent_sentences)

    ignored = during = chased = wrong_time = 0
    first_reply: dict[str, float] = {}
    for case_id, row in cases.items():
        per_mail = sorted(mails.get(case_id, []), key=lambda m: m[0])
        per_chat = chats.get(case_id, [])
        for owner, lines in per_chat:
            if not lines:
                continue
            start, end = lines[0][0], lines[-1][0]
            if any(a is None and t < start for t, a, _ in per_mail) and not any(
                not a and MENTIONS_MAIL.search(text) for _, a, text in lines
            ):
                ignored += 1
            during += sum(1 for t, a, _ in per_mail if a is not None and start <= t <= end)
            zone = zone_of.get(owner, ZoneInfo("America/New_York"))
            wrong_time += sum(
                1 for t, a, text in lines if a and wrong_time_words(text, local_hour(t, zone))
            )
        for t, a, body in per_mail:
            if a is not None:
                greeting = body.strip().split("\n\n")[0]
                closing = body.strip().split("\n\n")[-2] if "\n\n" in body.strip() else ""
                wrong_time += wrong_time_words(f"{greeting}\n{closing}", local_hour(t, zone_of[a]))
        # chasing: a customer message less than CHASE_HOURS after an agent's e-mail or
        # the end of another chat of the case (a live chat's own lines are no answer)
        quiet = timedelta(hours=CHASE_HOURS)
        answers = [t for t, a, _ in per_mail if a is not None]
        ends = [(k, lines[-1][0]) for k, (_, lines) in enumerate(per_chat) if lines]
        asks = [(t, -1, text) for t, a, text in per_mail if a is None]
        asks += [(t, k, x) for k, (_, lines) in enumerate(per_chat) for t, a, x in lines if not a]
        for t, k, text in asks:
            if CHASES.search(text) and (
                any(t - quiet < at < t for at in answers)
                or any(t - quiet < end < t for j, end in ends if j != k)
            ):
                chased += 1
        timeline = [(t, a is not None) for t, a, _ in per_mail]
        timeline += [(t, a) for _, lines in per_chat for t, a, _ in lines]
        timeline.sort(key=lambda m: m[0])
        created = parse_datetime(row[2])
        reply = next((t for t, by_agent in timeline if by_agent), None)
        if reply is not None and (today - created.date()).days <= RECENT_DAYS:
            first_reply[case_id] = (reply - created).total_seconds() / 3600

    earlier: dict[str, list[datetime]] = defaultdict(list)
    for row in cases.values():
        earlier[row[1]].append(parse_datetime(row[2]))
    second = sum(
        1
        for row in cases.values()
        if SECOND.search(row[6] or "")
        and not any(t < parse_datetime(row[2]) for t in earlier[row[1]])
    )
    urgent = sum(
        1
        for row in cases.values()
        if row[5] != "High" and URGENT.search(f"{row[6] or ''}\n{row[7] or ''}")
    )
    miscased = sum(
        1
        for table in ("Contact", "User")
        for (name,) in conn.execute(f'SELECT Name FROM "{table}"')
        if MISCASED.search(name or "")
    )

    chat_days = Counter(
        lines[0][0].weekday() for per in chats.values() for _, lines in per if lines
    )
    created_all = [parse_datetime(r[2]) for r in cases.values()]
    closed_all = [parse_datetime(r[3]) for r in cases.values() if r[3]]
    open_reply = [h for c, h in first_reply.items() if cases[c][4] != "Closed"]
    closed_reply = [h for c, h in first_reply.items() if cases[c][4] == "Closed"]
    reply_ratio = median(open_reply) / median(closed_reply) if open_reply and closed_reply else 0.0
    hours_to_close: dict[str, list[float]] = defaultdict(list)
    for row in cases.values():
        if row[3]:
            span = parse_datetime(row[3]) - parse_datetime(row[2])
            hours_to_close[row[5]].append(span.total_seconds() / 3600)
    high, low = hours_to_close.get("High"), hours_to_close.get("Low")
    mails_flat = [b for per in mails.values() for _, _, b in per]
    return [
        ("ratio_norm_descriptions", "normalised distinct-trigram ratio, descriptions",
         _ratio([norm(r[7] or "") for r in cases.values()]), ">= 0.30"),
        ("ratio_norm_emails", "normalised distinct-trigram ratio, e-mails",
         _ratio([norm(b) for b in mails_flat]), ">= 0.25"),
        ("ratio_norm_chat", "normalised distinct-trigram ratio, chat lines",
         _ratio(normal_chat), ">= 0.30"),
        ("share_agent_sentences_repeated", "share of agent e-mail sentences repeated verbatim",
         _share(sum(1 for s in agent_sentences if sentence_counts[s] > 1), len(agent_sentences)),
         "<= 0.25"),
        ("share_norm_chat_repeated", "share of normalised chat lines repeated",
         _share(sum(1 for t in normal_chat if chat_counts[t] > 1), len(normal_chat)), "<= 0.20"),
        ("s1_chat_ignores_mail", "s1: chats ignoring the customer's earlier e-mail",
         ignored, "== 0"),
        ("s2_mail_during_chat", "s2: agent e-mails sent while the case's chat runs",
         during, "== 0"),
        ("s3_chase_answered", "s3: customer chasing within 24 h of an agent's message",
         chased, "== 0"),
        ("s4_second_request_first", "s4: 'second request' subjects with no earlier case",
         second, "== 0"),
        ("s5_greeting_time", "s5: agent greetings wrong for the agent's local time",
         wrong_time, "== 0"),
        ("s6_urgent_not_high", "s6: cases called urgent whose Priority is not High",
         urgent, "== 0"),
        ("s7_names_miscased", "s7: people named in a casing nobody writes", miscased, "== 0"),
        ("ratio_saturday_chats", "chats on Saturdays per chat on Sundays",
         _share(chat_days[5], chat_days[6]), ">= 0.5"),
        ("days_last_created", "days from the last case created to the org's today",
         (today - max(created_all).date()).days if created_all else 0, "<= 7"),
        ("days_last_closed", "days from the last closure to the org's today",
         (today - max(closed_all).date()).days if closed_all else 0, "<= 7"),
        ("ratio_first_reply_open", "median first reply, open / closed cases of the last weeks",
         reply_ratio, "<= 1"),
        ("ratio_close_high_low", "median hours to close, High / Low priority",
         median(high) / median(low) if high and low else 0.0, "<= 1"),
    ]  # fmt: skip

"""Realism measures of the knowledge articles: guides that agree with the policies, and
articles that differ from one seed to another.

Definitions (exact, so figures compare across generator versions):

- A *policy* article is one whose body lists "Allowed resolutions:" as lines
  "- Name: ... within N days of the purchase date." (or "No time limit applies."), after
  "For <issue phrase>, agents may offer ...". Every other article is a *guide*.
- A guide *offers* a resolution in a sentence that names it, or its everyday word (an
  exchange is a Replacement, a refund or return for money back a Full Refund, credit a
  Store Credit), together with a window ("within N days"). The sentence is *about* an
  issue when it uses the issue's words (fit or size: a size mismatch; faulty, defect or
  broken: a defective product; warranty; cancel; late or delayed; wrong item; return),
  else about any issue.
- *Guide offers against a policy* (bar 0): offering sentences for which no policy of the
  issues they are about allows that resolution with that window (the policy's window,
  neither shorter nor longer; "no time limit" for a sentence without a window never
  counts).
- *Articles identical across seeds* (context, reported by the benchmark with two orgs):
  the share of articles (matched by title, else by their order by title) whose body is
  the same in both orgs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from crm_tui.org.store.orgstore import OrgStore

POLICY_PHRASE = re.compile(r"^For (?P<phrase>.+?), agents may offer ", re.M)
ALLOWED = re.compile(
    r"^- (?P<name>[^:\n]+): .*?(?:within (?P<days>\d+) days of the purchase date|"
    r"No time limit applies)",
    re.M,
)
SENTENCE = re.compile(r"(?<=[.!?])\s+")
WINDOW = re.compile(r"\bwithin (\d+) days\b", re.I)
# everyday words for a resolution (the names themselves count too)
RESOLUTION_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("Replacement", re.compile(r"\bexchang(?:e|ed|es|ing)\b|\breplacement\b", re.I)),
    ("Full Refund", re.compile(r"\b(?:full )?refund(?:ed)?\b|\bmoney back\b", re.I)),
    ("Store Credit", re.compile(r"\bstore credit\b", re.I)),
    ("Discount Code", re.compile(r"\bdiscount code\b", re.I)),
    ("Loyalty Points Credit", re.compile(r"\bloyalty points credit\b", re.I)),
    ("Free Shipping on Next Order", re.compile(r"\bfree shipping\b", re.I)),
    ("Extended Warranty", re.compile(r"\bextended warranty\b", re.I)),
)
ISSUE_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a size mismatch", re.compile(r"\b(?:fit|fits|size|sizes|sizing)\b", re.I)),
    ("a defective product", re.compile(r"\b(?:faulty|defect\w*|broken|damaged)\b", re.I)),
    ("a warranty claim", re.compile(r"\bwarranty\b", re.I)),
    ("an order that could not be cancelled", re.compile(r"\bcancel\w*\b", re.I)),
    ("a delayed shipment", re.compile(r"\b(?:late|delayed|delay)\b", re.I)),
    ("an incorrect item", re.compile(r"\bwrong item\b|\bincorrect item\b", re.I)),
    ("a return", re.compile(r"\breturn(?:s|ed)?\b", re.I)),
)

Policies = dict[str, dict[str, int | None]]  # issue phrase -> resolution -> window (days)


def read_policies(bodies: Iterable[str]) -> Policies:
    """The policy articles among `bodies`: their issue phrase and allowed resolutions."""
    out: Policies = {}
    for body in bodies:
        head = POLICY_PHRASE.search(body)
        if head is None or "Allowed resolutions:" not in body:
            continue
        out[head["phrase"]] = {
            m["name"]: int(m["days"]) if m["days"] else None for m in ALLOWED.finditer(body)
        }
    return out


def guide_conflicts(policies: Policies, guides: Iterable[str]) -> list[str]:
    """The guide sentences that offer a resolution no policy they are about allows with
    that window (see the module docstring)."""
    out: list[str] = []
    for body in guides:
        for sentence in SENTENCE.split(body.replace("\n", " ")):
            window = WINDOW.search(sentence)
            if window is None:
                continue
            days = int(window[1])
            offered = [name for name, words in RESOLUTION_WORDS if words.search(sentence)]
            if not offered:
                continue
            about = [p for p, words in ISSUE_WORDS if words.search(sentence) and p in policies]
            rules = [policies[p] for p in about] or list(policies.values())
            if not any(rule.get(name, -1) == days for name in offered for rule in rules):
                out.append(sentence.strip())
    return out


def article_measures(store: OrgStore) -> list[tuple[str, str, float, str]]:
    """(key, label, value, bar) of the articles of one org."""
    bodies = [b or "" for (b,) in store.conn.execute("SELECT FAQ_Answer__c FROM Knowledge__kav")]
    policies = read_policies(bodies)
    guides = [b for b in bodies if not POLICY_PHRASE.search(b)]
    return [
        (
            "c9_guide_against_policy",
            "9: guide sentences offering what the policies do not allow",
            len(guide_conflicts(policies, guides)),
            "== 0",
        )
    ]


def share_identical_articles(a: OrgStore, b: OrgStore) -> float:
    """The share of articles whose body is the same in both orgs (matched by title, the
    rest by their order by title)."""

    def read(store: OrgStore) -> list[tuple[str, str]]:
        return [
            (t or "", body or "")
            for t, body in store.conn.execute(
                "SELECT Title, FAQ_Answer__c FROM Knowledge__kav ORDER BY Title"
            )
        ]

    left, right = read(a), read(b)
    by_title = dict(right)
    same = sum(1 for t, body in left if t in by_title and by_title[t] == body)
    rest_l = [body for t, body in left if t not in by_title]
    rest_r = [body for t, body in right if t not in dict(left)]
    same += sum(1 for x, y in zip(rest_l, rest_r) if x == y)
    return same / len(left) if left else 0.0

"""Issue__c records and Knowledge__kav articles: 10 policies (one per issue) and 35 guides,
all visible to customers, and (`build_internal`, the org's last stage) internal-only
articles for the staff.

Latent variables: each policy article's allowed resolutions with their windows
(ARTICLE_POLICY), question-answer pairs per article whose answers are verbatim spans of
FAQ_Answer__c (ARTICLE_QA), and each issue's policy article (ISSUE_POLICY_ARTICLE); the
internal-only articles' question-answer pairs are kept apart (ARTICLE_INTERNAL_QA).

The wording around the facts is the org's own (its own stream, "knowledge-texts"): how a
guide opens and closes, the words leading into some of its tips, its paragraphs, and how a
policy sums up its rules, so two orgs' articles read differently. The facts (the answers
of the QA pairs, verbatim), the allowed resolutions and their windows read the same.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from crm_tui.org.generate.common import COMPANY, IdMaker, rng
from crm_tui.org.generate.datafile import Table
from crm_tui.org.generate.kbtexts import Guide, Policy, kbtexts
from crm_tui.org.generate.products import Catalog
from crm_tui.org.generate.writing_style import vary
from crm_tui.org.schema import latent
from crm_tui.org.store.orgstore import OrgStore

SPAN_RE = re.compile(r"\{\{(.+?)\}\}", re.S)
PRODUCT_RE = re.compile(r"<<(.+?)>>")

QA = dict[str, str]  # {"question": ..., "answer": ...}


@dataclass
class Issue:
    index: int
    id: str
    name: str
    phrase: str  # "an incorrect item"
    article_id: str
    resolutions: dict[str, int | None]  # allowed resolution -> window in days (None: no limit)


@dataclass
class KnowledgeBase:
    issues: list[Issue]
    counts: dict[str, int]


def render(text: str) -> tuple[str, list[str]]:
    """Text without the span markers, and the spans in order."""
    return SPAN_RE.sub(lambda m: m.group(1), text), SPAN_RE.findall(text)


def join_or(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def window_phrase(days: int | None) -> str:
    return "no time limit" if days is None else f"within {days} days of the purchase date"


# How a policy sums up its rules (the same three rules in each), and what it may add.
POLICY_RULES = (
    "Agents must not offer any resolution that is not listed above for this issue, and must "
    "check the time limit against the purchase date on the order before offering one. When "
    "no listed resolution applies, escalate the case to a team lead.",
    "Only the resolutions listed above may be offered for this issue. Before offering one, "
    "check its time limit against the purchase date on the order; if none of them applies, "
    "escalate the case to a team lead.",
    "Offer nothing beyond the list above for this issue, and always compare the time limit "
    "with the order's purchase date first. Cases that no listed resolution covers go to a "
    "team lead.",
    "Agents may offer only what is listed above for this issue, each within its time limit "
    "as counted from the purchase date on the order. If no listed resolution fits, the case "
    "is escalated to a team lead.",
    "Anything not on the list above is not available for this issue. Check every time limit "
    "against the order's purchase date before you offer a resolution, and hand the case to "
    "a team lead when none applies.",
)
POLICY_ASIDES = (
    "[Note|Record] the resolution [you offered|offered] [on the case|in the case comments] "
    "[so the next agent can see it|before you close it|for the team's records].",
    "[Be clear with the customer|Tell the customer plainly|Explain to the customer] "
    "[what happens next|how long the resolution takes|which option you recommend].",
    "[When in doubt|If the details are unclear|If anything is missing], [ask for the order "
    "number first|check the order before you answer|confirm the purchase date with the "
    "customer].",
    "",
    "",
)
# How a guide opens and closes, and words that lead into some of its tips.
GUIDE_OPENERS = (
    "",
    "",
    "[A few simple habits|A little care|Some small habits] [go a long way|make a real "
    "difference|pay off] [here|with this gear|over time].",
    "[This guide covers|Here are|Below are] [the basics|the essentials|our best tips|the "
    "points our customers ask about most].",
    "[Our product team|Our customer care team|Our gear specialists] put these [tips|notes|"
    "pointers] together [from customer questions|from years of questions|for you].",
    "[Read this|Start here|Have a look at this] [before your first use|when your order "
    "arrives|if you are new to this gear].",
)
GUIDE_CLOSERS = (
    "",
    "",
    "[Questions about your order?|Still unsure?|Need more help?] [Our customer care "
    "team|Our support team|Customer care] [can help|is happy to help|will help you] [by "
    "phone, e-mail or live chat|through any of our contact channels].",
    "[Following these steps|Looking after your gear this way|A little care like this] "
    "[keeps it working for longer|helps it last|keeps it in good shape].",
    "[See the product page|Check the product page|Visit the product page] for [the "
    "details of your model|model-specific details|the full specifications].",
)
GUIDE_LEADS = ("Tip: ", "Good to know: ", "Remember: ", "Worth knowing: ", "Our advice: ")
# An internal-only article speaks to the staff, so it opens and closes as one would.
INTERNAL_OPENERS = (
    "[For the service team only|Staff use only|Internal guidance]: [do not share|never "
    "quote|do not forward] this [article|page|guidance] [to|with] customers.",
    "[This page sets out|Below is|Here is] [how the service team works|the team's rule|what "
    "agents need to know] [on this|in these cases|here].",
    "[Read this|Keep this in mind|Check this page] before [you answer a customer|you reply|"
    "you decide] on [such a case|a case like this|this].",
)
INTERNAL_CLOSERS = (
    "[Questions about this guidance?|Not sure it applies?|Unsure?] [Ask your team lead|Check "
    "with your team lead|Raise it with the service desk lead].",
    "[This guidance|This page|This rule] is [reviewed|updated|checked] [every quarter|each "
    "season|twice a year] by [the service leads|customer care management|the team leads].",
    "[Log|Note|Record] [what you decided|the outcome|your decision] in the case comments.",
)


def policy_text(p: Policy, r: random.Random | None = None) -> tuple[str, list[QA]]:
    """The body of a policy article and its QA pairs (its closing wording drawn from `r`,
    the first wording without one)."""
    qa: list[QA] = []
    intro, spans = render(p["intro"])
    for q, a in zip(kbtexts().intro_questions.get(p["issue"], []), spans):
        qa.append({"question": q, "answer": a})
    res = list(p["resolutions"])
    paras = [intro]
    listing = f"For {p['phrase']}, agents may offer {join_or(res)}."
    paras.append(listing)
    qa.append(
        {"question": f"What resolutions are available for {p['phrase']}?", "answer": join_or(res)}
    )
    lines = ["Allowed resolutions:"]
    for name, days in p["resolutions"].items():
        limit = (
            "No time limit applies."
            if days is None
            else f"Available when the request is made {window_phrase(days)}."
        )
        lines.append(f"- {name}: {kbtexts().resolutions[name]}. {limit}")
        if days is None:
            qa.append(
                {
                    "question": f"Is there a time limit for a {name} after {p['phrase']}?",
                    "answer": "No time limit",
                }
            )
        else:
            qa.append(
                {
                    "question": f"How long do customers have to request a {name} for "
                    f"{p['phrase']}?",
                    "answer": window_phrase(days),
                }
            )
    paras.append("\n".join(lines))
    for sentence, question in p["facts"]:
        text, spans = render(sentence)
        paras.append(text)
        qa.extend({"question": question, "answer": a} for a in spans[:1])
    if r is None:
        paras.append(POLICY_RULES[0])
    else:
        aside = vary(r, r.choice(POLICY_ASIDES))
        paras.append(" ".join(x for x in (r.choice(POLICY_RULES), aside) if x))
    body = "\n\n".join(paras)
    if "Store Credit" in p["resolutions"]:
        qa.append(
            {
                "question": "How long is store credit valid after it is issued?",
                "answer": "90 days after issuance",
            }
        )
    if "Extended Warranty" in p["resolutions"]:
        qa.append(
            {
                "question": "How long does the extended warranty cover a product?",
                "answer": "365 days from the date of purchase",
            }
        )
    return body, qa


def guide_text(
    sentences: list[tuple[str, str | None]],
    fill: Callable[[str], str],
    r: random.Random | None = None,
    framing: tuple[tuple[str, ...], tuple[str, ...]] = (GUIDE_OPENERS, GUIDE_CLOSERS),
) -> tuple[str, list[QA]]:
    """The body of a guide and its QA pairs: its sentences with, drawn from `r`, an opening
    and a closing (from `framing`) and words leading into a tip (none without `r`)."""
    qa: list[QA] = []
    parts = []
    for sentence, question in sentences:
        text, spans = render(fill(sentence))
        if r is not None and r.random() < 0.2:
            text = r.choice(GUIDE_LEADS) + text
        parts.append(text)
        if question and spans:
            qa.append({"question": fill(question), "answer": spans[0]})
    if r is not None:
        openers, closers = framing
        opener, closer = vary(r, r.choice(openers)), vary(r, r.choice(closers))
        parts = [x for x in (opener, *parts, closer) if x]
    # Two or three sentences per paragraph, as a help-centre article reads.
    paras: list[str] = []
    i = 0
    while i < len(parts):
        left = len(parts) - i
        step = 3 if left == 3 or (r is not None and left > 4 and r.random() < 0.4) else 2
        paras.append(" ".join(parts[i : i + step]))
        i += step
    return "\n\n".join(paras), qa


def slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def article_row(
    aid: str, title: str, summary: str, body: str, *, visible_to_customers: bool
) -> dict[str, str | int]:
    """A published Knowledge__kav row."""
    return {
        "Id": aid,
        "Title": title,
        "Summary": summary,
        "FAQ_Answer__c": body,
        "UrlName": slug(title),
        "PublishStatus": "Online",
        "Language": "en_US",
        "IsVisibleInCsp": int(visible_to_customers),
    }


def build(store: OrgStore, seed: int, cat: Catalog) -> KnowledgeBase:
    r = rng(seed, "knowledge")
    r_words = rng(seed, "knowledge-texts")  # the wording's own: Ids and products stay put
    issue_id, article_id = IdMaker("Issue__c"), IdMaker("Knowledge__kav")

    # A product per type for the product-specific guides.
    by_type: dict[str, list[str]] = {}
    for p in cat.products:
        by_type.setdefault(p.type.noun, []).append(p.name)
    chosen = {noun: r.choice(names) for noun, names in by_type.items()}

    def fill(text: str) -> str:
        return PRODUCT_RE.sub(lambda m: chosen.get(m.group(1), f"{COMPANY} {m.group(1)}"), text)

    # Articles in a shuffled order, so policies are not simply the first Ids.
    entries: list[Policy | Guide] = [*kbtexts().policies, *kbtexts().guides]
    r.shuffle(entries)
    ids = {id(e): article_id() for e in entries}

    issues: list[Issue] = []
    for k, policy in enumerate(kbtexts().policies):
        issues.append(
            Issue(
                k,
                issue_id(),
                policy["issue"],
                policy["phrase"],
                ids[id(policy)],
                dict(policy["resolutions"]),
            )
        )
    store.insert("Issue__c", [{"Id": i.id, "Name": i.name} for i in issues])

    rows: list[dict[str, str | int]] = []
    lat: list[tuple[str, str, str, str]] = []
    for e in entries:
        aid = ids[id(e)]
        if not isinstance(e, tuple):  # a policy (a guide is a tuple)
            title, summary = e["title"], e["summary"]
            body, qa = policy_text(e, r_words)
            issue = next(i for i in issues if i.article_id == aid)
            lat.append(
                (
                    "Knowledge__kav",
                    aid,
                    latent.ARTICLE_POLICY[1],
                    latent.dumps({"issue": issue.id, "resolutions": issue.resolutions}),
                )
            )
        else:
            title, summary, sentences = e
            title, summary = fill(title), fill(summary)
            body, qa = guide_text(sentences, fill, r_words)
        for pair in qa:  # the contract: every answer is a verbatim span of the body
            assert pair["answer"] in body, (title, pair)
        lat.append(("Knowledge__kav", aid, latent.ARTICLE_QA[1], latent.dumps(qa)))
        rows.append(article_row(aid, title, summary, body, visible_to_customers=True))
    rows.sort(key=lambda row: row["Id"])
    store.insert("Knowledge__kav", rows)
    lat.extend(
        ("Issue__c", i.id, latent.ISSUE_POLICY_ARTICLE[1], latent.dumps(i.article_id))
        for i in issues
    )
    store.set_latent(lat)
    return KnowledgeBase(issues, {"Issue__c": len(issues), "Knowledge__kav": len(rows)})


INTERNAL_FILE = "internal_kb.toml"


def internal_articles() -> tuple[Guide, ...]:
    """The internal-only articles of data/internal_kb.toml: title, summary, sentences."""
    return read_internal_articles(Table.read(INTERNAL_FILE))


def read_internal_articles(table: Table) -> tuple[Guide, ...]:
    """The internal-only articles of a data table shaped as data/internal_kb.toml."""
    return tuple(
        (
            t.string("title"),
            t.string("summary"),
            [
                (s.string("sentence"), s.string("question") if "question" in s.value else None)
                for s in t.tables("sentences")
            ],
        )
        for t in table.tables("articles")
    )


def build_internal(store: OrgStore, seed: int) -> dict[str, int]:
    """The internal-only articles (IsVisibleInCsp false), numbered after every article
    written before them so that no earlier Id moves; returns the rows written. Their
    question-answer pairs go to ARTICLE_INTERNAL_QA, apart from ARTICLE_QA. Their wording
    around the facts is the org's own, as the other articles' is."""
    r_words = rng(seed, "knowledge-internal-texts")
    (written,) = store.conn.execute("SELECT COUNT(*) FROM Knowledge__kav").fetchone()
    article_id = IdMaker("Knowledge__kav", written + 1)
    rows: list[dict[str, str | int]] = []
    lat: list[tuple[str, str, str, str]] = []
    for title, summary, sentences in internal_articles():
        aid = article_id()
        body, qa = guide_text(
            sentences, lambda text: text, r_words, (INTERNAL_OPENERS, INTERNAL_CLOSERS)
        )
        for pair in qa:  # as for every article: each answer is a verbatim span of the body
            assert pair["answer"] in body, (title, pair)
        lat.append(("Knowledge__kav", aid, latent.ARTICLE_INTERNAL_QA[1], latent.dumps(qa)))
        rows.append(article_row(aid, title, summary, body, visible_to_customers=False))
    store.insert("Knowledge__kav", rows)
    store.set_latent(lat)
    return {"Knowledge__kav": len(rows)}

"""The generated texts: writing styles, chat flows, e-mail threads, descriptions and defects.

The composers are driven directly with many seeded draws (the counts over a whole generated
org are in tests/org/test_realism.py).
"""

from __future__ import annotations

import random
import re
from datetime import date, datetime

import pytest

from crm_tui.org.generate import chats, descriptions, emails, threads
from crm_tui.org.generate import texts as tx
from crm_tui.org.generate.assortment import assortment
from crm_tui.org.generate.daytime import fit_time
from crm_tui.org.generate.defects import defects_for
from crm_tui.org.generate.kbtexts import resolutions
from crm_tui.org.generate.people import surname_cased
from crm_tui.org.generate.writing_style import agent_voice, customer_style, vary
from crm_tui.tasks.newcase import compose_case

TYPES = assortment().types
TYPE = {t.noun: t for t in TYPES}
DRAWS = 400


def style(i: int):
    return customer_style(1, f"customer-{i}")


def test_vary_picks_every_alternative_and_leaves_no_stray_space():
    r = random.Random(1)
    seen = {vary(r, "I'll take [that option|that|]. [Thanks|Cheers]!") for _ in range(200)}
    assert seen == {
        "I'll take that option. Thanks!",
        "I'll take that. Thanks!",
        "I'll take. Thanks!",
        "I'll take that option. Cheers!",
        "I'll take that. Cheers!",
        "I'll take. Cheers!",
    }
    assert vary(r, "[Since it's recent|As it's new], ").endswith(", ")  # a lead keeps its space


def test_one_customer_writes_alike_and_customers_differ():
    assert customer_style(3, "001A") is customer_style(3, "001A")
    styles = [style(i) for i in range(200)]
    assert len({s.tone for s in styles}) == 4
    assert len({s.signoff for s in styles}) >= 10
    assert 0.05 < sum(s.lower for s in styles) / 200 < 0.2


def test_an_agent_signs_every_e_mail_of_a_thread_the_same_way():
    voice = agent_voice(1, "005Agent", "Dana Reyes", "Shoes & Clothings")
    assert voice == agent_voice(1, "005Agent", "Dana Reyes", "Shoes & Clothings")
    slots = _slots(random.Random(2), "Trail Running Shoes", tx.DEFECT)
    thread = emails.ThreadVoices(slots, style(1), tx.DEFECT, 0, "It broke.", "Offer.", None)
    steps = ["open", "ack", "info", "offer", "accept", "confirm", "thanks", "final"]
    bodies = emails.email_bodies(random.Random(3), steps, lambda i: voice, thread)
    signed = [body.rsplit("\n\n", 1)[1] for agent, body in bodies if agent]
    assert len(signed) == 4 and set(signed) == {voice.signature}


def _slots(r: random.Random, noun: str, issue: int) -> dict[str, str]:
    slots = descriptions.case_slots(
        r, TYPE[noun], f"Apex {noun}", "00001234", date(2024, 3, 1), date(2024, 3, 12), 99.0, "Co"
    )
    return slots | {"first": "Kim", "full": "Kim Lee", "agent_first": "Dana", "city": "Akron"}


@pytest.mark.parametrize("role", [chats.OFFERS, chats.PRECEDES, chats.FOLLOWS])
def test_a_chat_asks_for_the_order_number_only_when_not_given(role):
    r = random.Random(4)
    for i in range(DRAWS):
        said = i % 2 == 0
        steps = chats.chat_steps(r, role=role, style=style(i), can_decline=True, said_order=said)
        gave = said or "problem_with_order" in steps
        assert ("ask_order" in steps) == (role != chats.FOLLOWS and not gave), steps
        assert ("offer" in steps) == (role == chats.OFFERS)


def test_chats_vary_in_length_between_6_and_30_lines():
    r = random.Random(5)
    lengths = {
        len(chats.chat_steps(r, role=role, style=style(i), can_decline=True, said_order=False))
        for i in range(DRAWS)
        for role in (chats.OFFERS, chats.PRECEDES, chats.FOLLOWS)
    }
    assert min(lengths) >= 6 and max(lengths) <= 30
    assert len(lengths) >= 10


def test_only_the_offering_chat_names_a_resolution_and_answers_how_long_with_its_timeline():
    r = random.Random(6)
    named = re.compile("|".join(resolutions()), re.IGNORECASE)
    answered = 0
    for i in range(DRAWS):
        slots = _slots(r, "Yoga Mat", tx.DEFECT)
        role = (chats.OFFERS, chats.PRECEDES, chats.FOLLOWS)[i % 3]
        steps = chats.chat_steps(r, role=role, style=style(i), can_decline=False, said_order=False)
        voices = chats.ChatVoices(
            slots=slots,
            style=style(i),
            issue=tx.DEFECT,
            info=i,
            offered="Replacement" if role == chats.OFFERS else None,
            offer_text="I can send you a Replacement." if role == chats.OFFERS else "",
            declined_text="",
            problem="The yoga mat tore.",
            more="",
            agent_words=agent_voice(1, f"agent-{i}", "Dana Reyes", "Co").words,
        )
        lines = chats.chat_lines(r, steps, voices)
        offers = [text for agent, text in lines if agent and named.search(text)]
        assert len(offers) == (1 if role == chats.OFFERS else 0), lines
        if "timeline" in steps:  # "how long?" gets the Replacement's shipping time
            answer = lines[steps.index("timeline")][1]
            assert re.search(r"ship|deliver|warehouse", answer), answer
            answered += 1
    assert answered > 10


def test_e_mail_threads_follow_the_case_stage_and_the_offering_channel():
    for n in range(1, 9):
        new = emails.email_steps(n, stage=emails.NEW, carries_offer=True, before_chat=None)
        assert not set(new) & emails.AGENT_STEPS  # no agent activity on a New case
        still_open = emails.email_steps(n, stage=emails.OPEN, carries_offer=True, before_chat=None)
        assert "offer" not in still_open and len(still_open) == n
        offering = emails.email_steps(n, stage=emails.RESOLVED, carries_offer=True, before_chat=1)
        assert offering.count("offer") == (1 if n >= 2 else 0)
        after_chat = emails.email_steps(
            n, stage=emails.RESOLVED, carries_offer=False, before_chat=1
        )
        assert "offer" not in after_chat
        if n >= 2:
            assert after_chat[1] == "follow_up"  # the e-mail after the chat follows it up
        for steps in (still_open, offering, after_chat):  # customer and agent alternate
            assert all((i % 2 == 1) == (s in emails.AGENT_STEPS) for i, s in enumerate(steps))


def test_one_channel_carries_the_offer():
    r = random.Random(7)
    both = 0
    from datetime import datetime, timedelta

    start = datetime(2024, 5, 2, 15)
    for i in range(DRAWS):
        mails = [start + timedelta(hours=5 * k) for k in range(1 + i % 7)]
        plan = threads.plan(
            r,
            stage=emails.RESOLVED,
            style=style(i),
            mail_times=mails,
            chat_start=start + timedelta(hours=7),
            said_order=False,
        )
        offers = plan.chat_steps.count("offer") + plan.mail_steps.count("offer")
        assert offers <= 1, plan
        both += offers == 1
    assert both > DRAWS * 0.8


def test_descriptions_claim_only_what_fits_the_issue_and_the_history():
    r = random.Random(8)
    for i in range(DRAWS):
        issue = i % 10
        writer = descriptions.Customer(
            "Kim", "Kim Lee", style(i), since=date(2024, 1, 5), orders_before=i % 3, city="Akron"
        )
        slots = _slots(r, "Road Running Shoes", issue)
        text = descriptions.compose(r, issue, slots, writer, date(2024, 6, 1))
        said = text.description.lower()
        assert "since 20" not in said  # a customer of five months
        if issue != tx.DELAY:
            assert "neighbo" not in said and "front desk" not in said
        assert not re.search(r"\bthem (still|arrived|keep|won't|started)", said), said
        assert "{" not in text.description and "[" not in text.description


@pytest.mark.parametrize(
    ("noun", "impossible"),
    [
        ("Cycling Helmet", "handle"),
        ("Resistance Bands", "air"),
        ("Sports Bra", "zipper"),
        ("Yoga Mat", "charge"),
        ("Sport Earbuds", "sole"),
    ],
)
def test_defects_are_chosen_per_product_type(noun, impossible):
    assert defects_for(TYPE[noun])
    assert not any(impossible in d for d in defects_for(TYPE[noun]))


def test_every_product_type_has_defects_of_its_own_kind():
    for t in TYPES:
        assert defects_for(t), t.noun
    assert "the zipper broke on the first day" in defects_for(TYPE["Rain Jacket"])
    assert any("studs" in d for d in defects_for(TYPE["Soccer Cleats"]))


def test_new_case_texts_for_routing_are_composed_the_generator_s_way_and_vary():
    r = random.Random(9)
    texts = [
        compose_case(
            r, "Shipping Delay", "Apex Pro Trail Running Shoes", "00009999", date(2024, 12, 1)
        )
        for _ in range(50)
    ]
    assert len({d for _, d in texts}) == 50
    assert all("trail running shoes" in (s + d).lower() for s, d in texts)
    assert not any("{" in s + d or "[" in s + d for s, d in texts)


def test_new_case_texts_for_a_product_the_generator_did_not_name():
    r = random.Random(10)
    for issue in ("Shipping Delay", "Defective Product", "Size Mismatch", "Something Else"):
        subject, description = compose_case(r, issue, "Widget", "00000042", date(2024, 1, 9))
        assert subject and description and "{" not in subject + description


def test_agents_name_a_breaking_resolution_only_in_cases_with_the_latent_violation(
    default_org_path,
):
    """What a reader of the agents' messages concludes (PVI) is the latent truth: a declined
    first offer or a follow-up never adds a violation, and the violating offer is there."""
    from crm_tui.org.schema import latent
    from crm_tui.org.schema.sftime import parse_date
    from crm_tui.org.store.orgstore import OrgStore

    with OrgStore.open(default_org_path) as org:
        violations = {
            case: latent.loads(text)
            for case, text in org.latent(*latent.CASE_POLICY_VIOLATION).items()
        }
        issue_article = {
            k: latent.loads(v) for k, v in org.latent(*latent.ISSUE_POLICY_ARTICLE).items()
        }
        policies = {k: latent.loads(v) for k, v in org.latent(*latent.ARTICLE_POLICY).items()}
        agents = {r[0] for r in org.conn.execute("SELECT Email FROM User")}
        said: dict[str, list[tuple[date, str]]] = {}
        for case, body, frm, when in org.conn.execute(
            "SELECT ParentId, TextBody, FromAddress, MessageDate FROM EmailMessage"
        ):
            if frm in agents:
                said.setdefault(case, []).append((parse_date(when[:10]), body))
        for case, body in org.conn.execute("SELECT CaseId, Body FROM LiveChatTranscript"):
            for day, text in re.findall(r"^\[(\S{10})T[^\]]*\] [^(]*\(Agent\): (.*)$", body, re.M):
                said.setdefault(case, []).append((parse_date(day), text))
        cases = org.conn.execute(
            'SELECT c.Id, c.IssueId__c, o.EffectiveDate FROM "Case" c JOIN OrderItem i '
            'ON i.Id = c.OrderItemId__c JOIN "Order" o ON o.Id = i.OrderId'
        ).fetchall()
    checked = 0
    for case, issue, bought in cases:
        allowed = policies[issue_article[issue]]["resolutions"]
        breaking = False
        for day, text in said.get(case, []):
            for name in resolutions():
                if name.lower() in text.lower():
                    window = allowed.get(name)
                    late = window is not None and (day - parse_date(bought)).days > window
                    breaking |= name not in allowed or late
                    checked += 1
        truth = violations.get(case, {}).get("article") is not None
        assert breaking == truth, (case, violations.get(case), said.get(case))
    assert checked > 500


def test_greetings_and_wishes_fit_the_local_time_and_weekday():
    monday_9, tuesday_19 = datetime(2024, 5, 6, 9, 5), datetime(2024, 5, 7, 19, 30)
    assert fit_time("Good evening, Ann! Have a lovely evening!", monday_9) == (
        "Good morning, Ann! Have a lovely day!"
    )
    assert fit_time("Good morning Ann. Enjoy the rest of your afternoon.", tuesday_19) == (
        "Good evening Ann. Enjoy the rest of your day."
    )
    assert fit_time("Enjoy the rest of your weekend!", monday_9) == "Enjoy the rest of your week!"
    assert fit_time("Have a great weekend!", datetime(2024, 5, 10, 15)) == "Have a great weekend!"
    assert fit_time("I'll call this afternoon.", tuesday_19) == "I'll call today."


def test_surnames_are_cased_as_people_write_them():
    assert [surname_cased(n) for n in ("Oconnor", "Mcclain", "Obrien", "Delacruz")] == [
        "O'Connor",
        "McClain",
        "O'Brien",
        "De la Cruz",
    ]
    assert [surname_cased(n) for n in ("Olson", "Ortiz", "Mack", "Osborne")] == [
        "Olson",
        "Ortiz",
        "Mack",
        "Osborne",
    ]

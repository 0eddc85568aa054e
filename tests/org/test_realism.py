"""The realism measures: what they count, and the bars the generated org meets.

The measures are checked on hand-made inputs and on a copy of a generated org with one
planted contradiction each (so every count can be seen to move); the bars on the default
org (seed 1, scale 1) and on another seed.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys

import pytest

from crm_tui.org.generate.build_file import generate
from crm_tui.org.realism_articles import (
    guide_conflicts,
    read_policies,
    share_identical_articles,
)
from crm_tui.org.realism_measures import (
    chat_lines,
    impossible_defects,
    measure_realism,
    trigram_ratio,
)
from crm_tui.org.realism_story import normaliser, wrong_time_words
from crm_tui.org.store.orgstore import OrgStore

# Bars (key -> bar): BARS the generator meets at every seed tried, TEXT_BARS
# (the texts' variety) at seeds 1 and 2 with a smaller margin.
TEXT_BARS = {
    "ratio_descriptions": 0.35,
    "ratio_chat": 0.35,
    "ratio_emails": 0.30,
    "share_chat_repeated": 0.20,
}
BARS = {
    "share_open_old": 0.10,
    "chat_lengths": 8,
    "c1_new_with_activity": 0,
    "c1_open_offer_answered": 0,
    "c1_escalated_no_history": 0,
    "c2_order_asked_again": 0,
    "c4_offer_twice": 0,
    "c5_signatures": 0,
    "c8_impossible_defect": 0,
    "c8_doubled_product_words": 0,
    "c8_them_for_one": 0,
    "c8_unavailable_own_line": 0,
    "c8_promo_out_of_season": 0,
    "share_phone_valid": 1,
    "share_phone_in_state": 1,
    "share_phone_in_city": 1,
    "share_phone_fictional": 1,
    "share_email_reserved": 1,
    "share_agent_mail_night": 0.02,
    "share_closures_night": 0.02,
    "c7_chats_outside_hours": 0,
    "ratio_weekend_dip": 0.85,
    "share_created_night": 0.08,
    "c9_guide_against_policy": 0,
}
# At most this share of the knowledge articles may read the same at seeds 1 and 2.
ARTICLES_IDENTICAL_ACROSS_SEEDS = 0.10


# The story across channels, the queue and the week (realism_story): held to the bars the
# measures themselves state.
STORY_BARS = (
    "ratio_norm_descriptions",
    "ratio_norm_emails",
    "ratio_norm_chat",
    "share_agent_sentences_repeated",
    "share_norm_chat_repeated",
    "s1_chat_ignores_mail",
    "s2_mail_during_chat",
    "s3_chase_answered",
    "s4_second_request_first",
    "s5_greeting_time",
    "s6_urgent_not_high",
    "s7_names_miscased",
    "ratio_saturday_chats",
    "days_last_created",
    "days_last_closed",
    "ratio_first_reply_open",
    "ratio_close_high_low",
)


def story_misses(path) -> list[str]:
    with OrgStore.open(path) as store:
        found = {m.key: m for m in measure_realism(store)}
    return [
        f"{k} = {found[k].value:.3f} (bar {found[k].bar})" for k in STORY_BARS if not found[k].meets
    ]


def measures(path) -> dict[str, float]:
    with OrgStore.open(path) as store:
        return {m.key: m.value for m in measure_realism(store)}


@pytest.fixture(scope="module")
def other_seed_org(tmp_path_factory):
    path = tmp_path_factory.mktemp("orgs") / "seed2.sqlite"
    generate(path, seed=2, scale=1.0)
    return path


# ------------------------------------------------------------------ the measures themselves
def test_trigram_ratio_is_distinct_over_all_trigrams_within_documents():
    assert trigram_ratio(["a b c d", "a b c"]) == 2 / 3  # (a b c), (b c d), (a b c)
    assert trigram_ratio(["A b, c!", "a B c"]) == 1 / 2  # case and punctuation ignored
    assert trigram_ratio(["a b", "c d"]) == 1.0  # no trigram crosses documents


def test_chat_lines_keep_role_time_and_continuations():
    body = (
        "[2024-05-01T14:00:00] Ann Lee (Agent): Hi, how can I help?\n"
        "[2024-05-01T14:01:10] Bo Park (Customer): My order #12345\nis late."
    )
    lines = chat_lines(body)
    assert [(ln.agent, ln.text) for ln in lines] == [
        (True, "Hi, how can I help?"),
        (False, "My order #12345\nis late."),
    ]
    assert lines[1].time.minute == 1


def test_impossible_defects_follow_the_product_type():
    assert impossible_defects([("Aero Cycling Helmet", "The chin strap buckle broke.")]) == 0
    assert impossible_defects([("Aero Cycling Helmet", "The handle came loose today.")]) == 1
    assert impossible_defects([("Pro Resistance Bands", "They started losing air.")]) == 1


def test_every_city_customers_live_in_has_its_own_area_codes():
    from crm_tui.org.generate.areacodes import AREA_CODES, CITY_AREA_CODES
    from crm_tui.org.generate.people import CITIES

    for state, (_, cities) in CITIES.items():
        for city in cities:
            codes = CITY_AREA_CODES[state][city]
            assert codes and set(codes) <= set(AREA_CODES[state]), (state, city)
    assert CITY_AREA_CODES["NY"]["Buffalo"] == ("716",)


POLICY = """Sizing can vary.

For a size mismatch, agents may offer Replacement or Store Credit.

Allowed resolutions:
- Replacement: a new unit ships at no additional cost. Available when the request is made \
within 60 days of the purchase date.
- Store Credit: credit for the purchase amount. No time limit applies.

Agents must not offer any resolution that is not listed above."""


def test_guides_are_held_to_the_policies_of_what_they_speak_of():
    policies = read_policies([POLICY, "A guide. Nothing else."])
    assert policies == {"a size mismatch": {"Replacement": 60, "Store Credit": None}}
    ok = [
        "If the shoes do not fit, exchange them for another size within 60 days of purchase.",
        "Rinse the goggles after every swim. Store them dry.",  # offers nothing
        "If the shoes do not fit, ask for store credit.",  # no window: no limit
    ]
    assert guide_conflicts(policies, ok) == []
    wrong = [
        "Care tips. If the shoes do not fit, exchange them within 30 days of purchase.",
        "A refund for the wrong size is possible within 60 days.",  # not allowed at all
    ]
    assert guide_conflicts(policies, wrong) == [
        "If the shoes do not fit, exchange them within 30 days of purchase.",
        "A refund for the wrong size is possible within 60 days.",
    ]


def test_time_words_fit_the_local_hour():
    assert wrong_time_words("Good morning Ann,", 15)
    assert not wrong_time_words("Good morning Ann,", 9)
    assert wrong_time_words("Glad I could help. Have a lovely evening!", 8)
    assert not wrong_time_words("Glad I could help. Have a lovely evening!", 19)
    assert wrong_time_words("Good night!", 14) and not wrong_time_words("Good night!", 23)
    assert not wrong_time_words("Hi Ann, thanks for waiting.", 3)


def test_normalised_text_hides_names_products_and_numbers(small_org_path):
    with OrgStore.open(small_org_path) as store:
        product = store.conn.execute("SELECT Name FROM Product2 LIMIT 1").fetchone()[0]
        first = store.conn.execute("SELECT FirstName FROM Contact LIMIT 1").fetchone()[0]
        norm = normaliser(store)
    text = f"Hi {first}, the {product} of order #10234 (${12.50}) came on Monday, May 3."
    assert norm(text) == ("hi qqname the qqproduct of order qqnum qqnum came on qqday qqday qqnum")


@pytest.fixture
def planted(small_org_path, tmp_path):
    """A copy of the small org to plant contradictions in."""
    path = tmp_path / "planted.sqlite"
    shutil.copy(small_org_path, path)
    return path


def test_each_planted_contradiction_is_counted(planted):
    before = measures(planted)
    conn = sqlite3.connect(planted)
    with conn:
        # 1: a closed case with an agent e-mail becomes New
        case = conn.execute(
            "SELECT e.ParentId FROM EmailMessage e JOIN User u ON u.Email = e.FromAddress LIMIT 1"
        ).fetchone()[0]
        conn.execute("UPDATE \"Case\" SET Status = 'New' WHERE Id = ?", (case,))
        # 5: one agent e-mail of a thread signs differently
        mail, body = conn.execute(
            "SELECT e.Id, e.TextBody FROM EmailMessage e WHERE (e.ParentId, e.FromAddress) IN "
            "(SELECT e2.ParentId, e2.FromAddress FROM EmailMessage e2 JOIN User u "
            "ON u.Email = e2.FromAddress GROUP BY e2.ParentId, e2.FromAddress "
            "HAVING count(*) > 1) LIMIT 1"
        ).fetchone()
        conn.execute(
            "UPDATE EmailMessage SET TextBody = ? WHERE Id = ?",
            (body + "\n\nSomeone Else\nAnother Desk", mail),
        )
        # 6 and 8: a real but out-of-state phone; a doubled word in a product name
        conn.execute(
            "UPDATE Account SET Phone = '(212) 555-0123', ShippingState = 'CA' "
            "WHERE Id = (SELECT Id FROM Account LIMIT 1)"
        )
        # 6: a New York number in Buffalo (the state's, not the city's)
        conn.execute(
            "UPDATE Account SET Phone = '(212) 555-0145', ShippingState = 'NY', "
            "ShippingCity = 'Buffalo' WHERE Id = (SELECT Id FROM Account LIMIT 1 OFFSET 1)"
        )
        conn.execute(
            "UPDATE Product2 SET Name = 'Tempo Tempo Tee' "
            "WHERE Id = (SELECT Id FROM Product2 LIMIT 1)"
        )
        # s6 and s7: an urgent subject on a Low case; a name cased as nobody writes it
        conn.execute(
            "UPDATE \"Case\" SET Subject = 'URGENT: ' || Subject, Priority = 'Low' "
            "WHERE Id = (SELECT Id FROM \"Case\" WHERE Subject NOT LIKE '%urgent%' "
            "AND Description NOT LIKE '%urgent%' AND Description NOT LIKE '%asap%' "
            "AND Description NOT LIKE '%immediately%' LIMIT 1)"
        )
        conn.execute(
            "UPDATE Contact SET Name = 'Ann Mcclain' WHERE Id = (SELECT Id FROM Contact "
            "WHERE Name NOT LIKE '%Mc%' LIMIT 1)"
        )
    conn.close()
    after = measures(planted)
    assert after["c1_new_with_activity"] == before["c1_new_with_activity"] + 1
    assert after["c5_signatures"] == before["c5_signatures"] + 1
    n_accounts = sqlite3.connect(planted).execute("SELECT count(*) FROM Account").fetchone()[0]
    assert after["share_phone_in_state"] == pytest.approx(
        before["share_phone_in_state"] - 1 / n_accounts
    )
    assert after["share_phone_in_city"] == pytest.approx(
        before["share_phone_in_city"] - 2 / n_accounts
    )
    assert after["c8_doubled_product_words"] == before["c8_doubled_product_words"] + 1
    assert after["s6_urgent_not_high"] == before["s6_urgent_not_high"] + 1
    assert after["s7_names_miscased"] == before["s7_names_miscased"] + 1


def test_cli_check_realism_prints_the_measures_and_exits_0(small_org_path):
    res = subprocess.run(
        [
            sys.executable,
            "-c",
            "from crm_tui.cli import main; main()",
            "org",
            "check",
            "--realism",
            "--org",
            str(small_org_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.startswith("ok:")
    assert "distinct-trigram ratio, case descriptions" in res.stdout
    assert "chats outside the stated hours" in res.stdout


# ------------------------------------------------------------------ the bars, two seeds
def check_bars(values: dict[str, float], bars: dict[str, float] = BARS) -> list[str]:
    misses = []
    for key, bar in bars.items():
        at_least = key == "chat_lengths" or key.startswith("ratio_") and key != "ratio_weekend_dip"
        good = values[key] >= bar if at_least or bar == 1 else values[key] <= bar
        if not good:
            misses.append(f"{key} = {values[key]:.3f} (bar {bar})")
    return misses


def test_default_org_meets_the_realism_bars(default_org_path):
    assert check_bars(measures(default_org_path), BARS | TEXT_BARS) == []
    assert story_misses(default_org_path) == []


def test_another_seed_meets_the_realism_bars(other_seed_org):
    assert check_bars(measures(other_seed_org), BARS | TEXT_BARS) == []
    assert story_misses(other_seed_org) == []


def test_knowledge_articles_differ_from_seed_to_seed(default_org_path, other_seed_org):
    with OrgStore.open(default_org_path) as a, OrgStore.open(other_seed_org) as b:
        assert share_identical_articles(a, b) <= ARTICLES_IDENTICAL_ACROSS_SEEDS


def test_open_cases_belong_to_the_last_weeks(default_org_path):
    with OrgStore.open(default_org_path) as store:
        today = store.meta("today")
        oldest = store.conn.execute(
            "SELECT min(CreatedDate) FROM \"Case\" WHERE Status != 'Closed'"
        ).fetchone()[0]
    assert today is not None and oldest >= "2024-11"

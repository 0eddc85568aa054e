"""The generator's data files (crm_tui/org/generate/data/*.toml): each reads, with the shape
the generator draws from, and a bad edit names the file and the key."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from crm_tui.org.generate.agent_phrases import read_agent_phrases
from crm_tui.org.generate.assortment import Assortment, read_assortment
from crm_tui.org.generate.datafile import DATA_DIR, DataFileError, Table
from crm_tui.org.generate.description_phrases import read_description_phrases
from crm_tui.org.generate.kbtexts import read_kbtexts
from crm_tui.org.generate.knowledge import read_internal_articles
from crm_tui.org.generate.sales import read_sales_data
from crm_tui.org.generate.texts import ISSUE_WEIGHTS

# Each data file and the function that reads it from a table.
READERS: dict[str, Callable[[Table], object]] = {
    "agent_phrases.toml": read_agent_phrases,
    "assortment.toml": read_assortment,
    "b2b_sales.toml": read_sales_data,
    "description_phrases.toml": read_description_phrases,
    "internal_kb.toml": read_internal_articles,
    "kbtexts.toml": read_kbtexts,
}


def test_every_data_file_has_a_reader():
    assert sorted(p.name for p in DATA_DIR.glob("*")) == sorted(READERS)


@pytest.mark.parametrize("name", sorted(READERS))
def test_each_data_file_reads(name):
    READERS[name](Table.read(name))


def test_the_assortment_names_its_categories_by_position():
    a = read_assortment(Table.read("assortment.toml"))
    assert isinstance(a, Assortment)
    assert len(a.categories) == 12 and len(set(a.categories)) == 12
    assert len({t.noun for t in a.types}) == len(a.types) > 50
    assert all(0 <= c < len(a.categories) for t in a.types for c in (t.category, *t.also))
    assert all(lo < hi for t in a.types for lo, hi in [t.price])
    assert all(1 <= m <= 12 for t in a.types for m in t.peak)
    assert len(set(a.lines)) == len(a.lines) and len(set(a.variants)) == len(a.variants)


def test_knowledge_texts_have_a_policy_per_issue_and_a_question_per_span():
    kb = read_kbtexts(Table.read("kbtexts.toml"))
    issues = [p["issue"] for p in kb.policies]
    assert len(issues) == len(set(issues)) == len(next(iter(ISSUE_WEIGHTS.values())))
    assert set(kb.intro_questions) <= set(issues)
    for p in kb.policies:
        assert p["resolutions"] and p["facts"]
        assert all(s.count("{{") == 1 for s, _ in p["facts"])
        assert p["intro"].count("{{") == len(kb.intro_questions.get(p["issue"], []))
    for title, _, sentences in kb.guides:
        for sentence, question in sentences:
            assert ("{{" in sentence) == (question is not None), (title, sentence)


def test_agent_phrases_follow_the_issues_and_the_resolutions():
    kb = read_kbtexts(Table.read("kbtexts.toml"))
    ap = read_agent_phrases(Table.read("agent_phrases.toml"))
    assert list(ap.issues) == [p["issue"] for p in kb.policies]
    assert list(ap.offers) == list(kb.resolutions)
    assert set(ap.timelines) == set(kb.resolutions)
    # Only an offer names a resolution.
    others = [*ap.acks, *ap.confirms, *ap.follow_ups, *ap.finals, *ap.chat_status_answers]
    assert not [t for t in others for name in kb.resolutions if name in t]


def test_description_phrases_follow_the_issues_and_the_tones():
    kb = read_kbtexts(Table.read("kbtexts.toml"))
    dp = read_description_phrases(Table.read("description_phrases.toml"))
    assert list(dp.issues) == [p["issue"] for p in kb.policies]
    assert set(dp.asks) >= {"polite", "plain", "curt", "annoyed"}
    # The first core of a description names the product.
    assert all(any("{product}" in c for c in cores) for cores in dp.cores)


def edited(tmp_path: Path, name: str, old: str, new: str) -> Table:
    """The data file `name` with its first `old` replaced by `new`, read from tmp_path."""
    shutil.copy(DATA_DIR / name, tmp_path / name)
    text = (tmp_path / name).read_text()
    assert old in text
    (tmp_path / name).write_text(text.replace(old, new, 1))
    return Table.read(name, folder=tmp_path)


@pytest.mark.parametrize(
    ("name", "old", "new", "message"),
    [
        (
            "assortment.toml",
            "price = [89, 169]",
            "price = [89]",
            "assortment.toml: types[0].price: expected a list of 2 integers",
        ),
        (
            "assortment.toml",
            'category = "Running Footwear"',
            'category = "Running Shoes"',
            "assortment.toml: types[0].category: expected one of the categories, "
            "not 'Running Shoes'",
        ),
        (
            "assortment.toml",
            "discount = 0.85",
            'discount = "15%"',
            "assortment.toml: promotions[0].discount: expected a number with a decimal point",
        ),
        ("assortment.toml", "variants = [", "flavours = [", "assortment.toml: variants: missing"),
        (
            "agent_phrases.toml",
            "[[issues.info]]\nquestion",
            "[[issues.info]]\nask",
            "agent_phrases.toml: issues[0].info[0].question: missing",
        ),
        (
            "agent_phrases.toml",
            "thanks = [",
            "thanks = 3\nthank = [",
            "agent_phrases.toml: thanks: expected a list of strings",
        ),
        (
            "description_phrases.toml",
            'issues = ["Size Mismatch"]',
            'issues = ["Size Mismatches"]',
            "description_phrases.toml: extras[3].issues: expected issues of the [[issues]] "
            "tables, not 'Size Mismatches'",
        ),
        (
            "kbtexts.toml",
            '"Loyalty Points Credit" = "no limit"',
            '"Loyalty Points Credit" = "never"',
            "kbtexts.toml: policies[3].resolutions.Loyalty Points Credit: expected a window in "
            'days or "no limit"',
        ),
        (
            "kbtexts.toml",
            '"Full Refund" = 30',
            '"Full Refunds" = 30',
            "kbtexts.toml: policies[0].resolutions.Full Refunds: expected a resolution of the "
            "[resolutions] table",
        ),
        (
            "kbtexts.toml",
            'question = "What information',
            'questions = "What information',
            "kbtexts.toml: policies[0].facts[0].question: missing",
        ),
    ],
)
def test_a_bad_edit_names_the_file_and_the_key(tmp_path, name, old, new, message):
    with pytest.raises(DataFileError) as caught:
        READERS[name](edited(tmp_path, name, old, new))
    assert str(caught.value) == message


def test_a_file_that_is_not_toml_names_itself(tmp_path):
    with pytest.raises(DataFileError, match=r"^assortment\.toml: "):
        edited(tmp_path, "assortment.toml", "[[types]]", "[[types]")

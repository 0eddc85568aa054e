"""`check_org`: each integrity check passes on a generated org and fails on a broken copy."""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from crm_tui.org.schema.ids import is_valid_id, make_id
from crm_tui.org.store.check import CheckReport, _valid_id, check_org
from crm_tui.org.store.orgstore import OrgStore

FIRST_CASE = "(SELECT Id FROM \"Case\" WHERE Status = 'Closed' ORDER BY Id LIMIT 1)"
TRANSFERRED = (
    "(SELECT CaseId__c FROM CaseHistory__c WHERE OldValue__c IS NOT NULL "
    "ORDER BY CaseId__c LIMIT 1)"
)
# (name, SQL that breaks the org, text the report must contain)
BREAKAGES = [
    (
        "lookup",
        "UPDATE Contact SET AccountId = '{missing_account}' "
        "WHERE Id = (SELECT min(Id) FROM Contact)",
        "Contact.AccountId: points to no Account",
    ),
    (
        "lookup-case-issue",
        f"UPDATE \"Case\" SET IssueId__c = '{make_id('a1M', 999)}' WHERE Id = {FIRST_CASE}",
        "Case.IssueId__c: points to no Issue__c",
    ),
    (
        "history-user",
        f"UPDATE CaseHistory__c SET NewValue__c = '{make_id('005', 9999)}' "
        "WHERE Id = (SELECT min(Id) FROM CaseHistory__c "
        "WHERE Field__c = 'Owner Assignment')",
        "CaseHistory__c.NewValue__c: holds no User Id",
    ),
    (
        "required",
        f'UPDATE "Case" SET Subject = NULL WHERE Id = {FIRST_CASE}',
        "Case.Subject: required but empty",
    ),
    (
        "required-blank",
        "UPDATE User SET LastName = '  ' WHERE Id = (SELECT min(Id) FROM User)",
        "User.LastName: required but empty",
    ),
    (
        "dup-username",
        "UPDATE User SET Username = (SELECT min(Username) FROM User) "
        "WHERE Id = (SELECT max(Id) FROM User)",
        "User.Username: duplicate values",
    ),
    (
        "dup-email-case-insensitive",
        "UPDATE Contact SET Email = upper((SELECT min(Email) FROM Contact)) "
        "WHERE Id = (SELECT max(Id) FROM Contact)",
        "Contact.Email: duplicate values",
    ),
    (
        "dup-urlname",
        "UPDATE Knowledge__kav SET UrlName = (SELECT min(UrlName) FROM "
        "Knowledge__kav) WHERE Id = (SELECT max(Id) FROM Knowledge__kav)",
        "Knowledge__kav.UrlName: duplicate values",
    ),
    (
        "dup-casenumber",
        'UPDATE "Case" SET CaseNumber = \'00001001\' WHERE Id = (SELECT max(Id) FROM "Case")',
        "Case.CaseNumber: duplicate values",
    ),
    (
        "bad-suffix",
        "INSERT INTO Issue__c (Id, Name) VALUES ('a1MLc0000100999AAA', 'Broken')",
        "Issue__c.Id: malformed or without the key prefix a1M",
    ),
    (
        "wrong-prefix",
        f"INSERT INTO Issue__c (Id, Name) VALUES ('{make_id('001', 424242)}', 'Misfiled')",
        "Issue__c.Id: malformed or without the key prefix a1M",
    ),
    (
        "short-id",
        "INSERT INTO Issue__c (Id, Name) VALUES ('a1MLc00001009', 'Short')",
        "Issue__c.Id: malformed",
    ),
    (
        "picklist",
        f"UPDATE \"Case\" SET Priority = 'Urgent' WHERE Id = {FIRST_CASE}",
        "Case.Priority: value outside its picklist",
    ),
    (
        "closed-before-created",
        f"UPDATE \"Case\" SET ClosedDate = '2019-01-01T00:00:00.000+0000' WHERE Id = {FIRST_CASE}",
        "Case.ClosedDate: before CreatedDate",
    ),
    (
        "closed-without-date",
        f'UPDATE "Case" SET ClosedDate = NULL WHERE Id = {FIRST_CASE}',
        "Case.ClosedDate: empty on a Closed case",
    ),
    (
        "open-with-date",
        'UPDATE "Case" SET ClosedDate = CreatedDate WHERE Id = '
        "(SELECT min(Id) FROM \"Case\" WHERE Status != 'Closed')",
        "Case.ClosedDate: set on a case that is not Closed",
    ),
    (
        "contact-of-other-account",
        f'UPDATE "Case" SET ContactId = (SELECT Id FROM Contact WHERE AccountId != '
        f'(SELECT AccountId FROM "Case" WHERE Id = {FIRST_CASE}) LIMIT 1) WHERE Id = {FIRST_CASE}',
        "Case.ContactId: the contact belongs to another account",
    ),
    (
        "no-creation-row",
        f"DELETE FROM CaseHistory__c WHERE Field__c = 'Case Creation' AND CaseId__c = {FIRST_CASE}",
        "case without exactly one 'Case Creation' row",
    ),
    (
        "two-creation-rows",
        "INSERT INTO CaseHistory__c (Id, Name, CaseId__c, Field__c, CreatedDate) "
        f"SELECT '{make_id('a1N', 999999)}', 'CH-999999', CaseId__c, Field__c, CreatedDate "
        f"FROM CaseHistory__c WHERE Field__c = 'Case Creation' AND CaseId__c = {FIRST_CASE}",
        "case without exactly one 'Case Creation' row",
    ),
    (
        "creation-row-moved",
        "UPDATE CaseHistory__c SET CreatedDate = "
        "'2019-06-01T00:00:00.000+0000' WHERE Field__c = 'Case Creation' "
        f"AND CaseId__c = {FIRST_CASE}",
        "'Case Creation' row not at Case.CreatedDate",
    ),
    (
        "no-assignment",
        f"DELETE FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' "
        f"AND CaseId__c = {FIRST_CASE}",
        "case without an 'Owner Assignment' row",
    ),
    (
        "first-assignment-has-old-value",
        f"UPDATE CaseHistory__c SET OldValue__c = (SELECT min(Id) FROM User) WHERE Field__c = "
        f"'Owner Assignment' AND OldValue__c IS NULL AND CaseId__c = {FIRST_CASE}",
        "first 'Owner Assignment' of a case is not empty",
    ),
    (
        "transfer-chain-broken",
        f"UPDATE CaseHistory__c SET OldValue__c = (SELECT Id FROM User WHERE Id NOT IN "
        f"(SELECT NewValue__c FROM CaseHistory__c WHERE CaseId__c = {TRANSFERRED} AND "
        f"NewValue__c IS NOT NULL) LIMIT 1) WHERE OldValue__c IS NOT NULL "
        f"AND CaseId__c = {TRANSFERRED}",
        "transfer does not start from the previous owner",
    ),
    (
        "no-closed-row",
        f"DELETE FROM CaseHistory__c WHERE Field__c = 'Case Closed' AND CaseId__c = {FIRST_CASE}",
        "Closed case without a 'Case Closed' row at ClosedDate",
    ),
    (
        "closed-row-elsewhere",
        "UPDATE CaseHistory__c SET CreatedDate = "
        "'2030-01-01T00:00:00.000+0000' WHERE Field__c = 'Case Closed' "
        f"AND CaseId__c = {FIRST_CASE}",
        "Closed case without a 'Case Closed' row at ClosedDate",
    ),
    (
        "closed-row-on-open-case",
        "INSERT INTO CaseHistory__c (Id, Name, CaseId__c, Field__c, CreatedDate) "
        f"SELECT '{make_id('a1N', 999998)}', 'CH-999998', Id, 'Case Closed', CreatedDate "
        "FROM \"Case\" WHERE Status != 'Closed' ORDER BY Id LIMIT 1",
        "'Case Closed' row on a case that is not Closed",
    ),
    (
        "owner-not-last-assignee",
        f'UPDATE "Case" SET OwnerId = (SELECT Id FROM User WHERE Id != (SELECT OwnerId FROM '
        f'"Case" WHERE Id = {FIRST_CASE}) LIMIT 1) WHERE Id = {FIRST_CASE}',
        "Case.OwnerId: differs from the last 'Owner Assignment' NewValue__c",
    ),
]


@pytest.fixture
def broken_copy(tmp_path, small_org_path):
    """A writable copy of the small org and a helper that breaks it with SQL."""
    path = tmp_path / "org.sqlite"
    shutil.copy(small_org_path, path)

    def breaker(sql: str) -> CheckReport:
        conn = sqlite3.connect(path)
        with conn:
            conn.execute(sql.format(missing_account=make_id("001", 777777)))
        conn.close()
        with OrgStore.open(path) as store:
            return check_org(store)

    return breaker


def test_generated_org_passes_every_check(small_org):
    report = check_org(small_org)
    assert report.ok, report.problems
    names = set(report.checked)
    for prefix in ("ids:", "lookups:", "required:", "unique:", "picklists:"):
        assert any(n.startswith(prefix) for n in names), prefix
    assert {"case-dates", "case-consistency", "case-history"} <= names
    assert report.checked["ids:Case"] == small_org.count("Case")
    assert report.lines() == [report.lines()[0]] and report.lines()[0].startswith("ok:")


@pytest.mark.parametrize("name,sql,expected", BREAKAGES, ids=[b[0] for b in BREAKAGES])
def test_each_check_reports_a_broken_org(broken_copy, name, sql, expected):
    report = broken_copy(sql)
    assert not report.ok
    matching = [p for p in report.problems if expected in p]
    assert matching, report.problems
    # one precise line: object.field, a count and an example record Id
    line = matching[0]
    assert "(e.g. " in line and " row" in line
    assert report.lines()[0].startswith("FAILED:")


def test_problem_lines_name_the_offending_record(broken_copy, small_org):
    victim = small_org.conn.execute("SELECT min(Id) FROM Contact").fetchone()[0]
    report = broken_copy(BREAKAGES[0][1])
    assert any(victim in p for p in report.problems)


def test_the_id_check_agrees_with_is_valid_id_on_every_one_character_change():
    # The check's fast path knows the suffix of an Id's first 10 characters once: a change
    # anywhere (in a known head or not) must still fail exactly as `is_valid_id` says.
    ids = [make_id(p, n) for p in ("500", "a1M", "001") for n in (1, 61, 3844, 10**6, 62**5 + 7)]
    for good in ids:
        assert _valid_id(good) == 1
        for i in range(18):
            for ch in {good[i].swapcase(), "a", "Z", "0", "-", "\u00e9"} - {good[i]}:
                bad = good[:i] + ch + good[i + 1 :]
                assert _valid_id(bad) == int(is_valid_id(bad)), bad
    assert _valid_id(None) == 0 and _valid_id(42) == 0 and _valid_id(ids[0][:15]) == 1

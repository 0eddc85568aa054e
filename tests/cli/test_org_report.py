"""`crm-tui org report DEF`: table, CSV and JSON on a local org file or a Salesforce org,
and one line for a bad definition."""

from __future__ import annotations

import csv
import io
import json
import sqlite3

import pytest
from click.testing import CliRunner

from crm_tui.cli import main
from crm_tui.cli.main import cli
from tests.org.test_backends_parametrised import open_backend, salesforce_server  # noqa: F401

BRI = """
name = "Fastest closing states, 2023"
object = "Case"
summaries = ["AVG(Age)"]
sort = {summary = "AVG(Age)", descending = false}

[[filters]]
field = "Status"
operator = "="
value = "Closed"

[[date_ranges]]
field = "CreatedDate"
range = "2023"

[[groupings]]
field = "Account.ShippingState"
"""


def run(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


@pytest.fixture
def definition(tmp_path):
    path = tmp_path / "bri.toml"
    path.write_text(BRI)
    return path


def _truth(org_path) -> dict[str, int]:
    with sqlite3.connect(org_path) as conn:
        return dict(
            conn.execute(
                'SELECT a.ShippingState, count(*) FROM "Case" c JOIN Account a '
                "ON a.Id = c.AccountId WHERE c.Status = 'Closed' AND c.CreatedDate >= '2023' "
                "AND c.CreatedDate < '2024' GROUP BY 1"
            ).fetchall()
        )


def test_csv_and_json_match_the_org(definition, small_org_path):
    truth = _truth(small_org_path)
    code, out = run("org", "report", definition, "--org", small_org_path, "--format", "csv")
    assert code == 0, out
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["Account: Shipping State", "COUNT()", "AVG(Age)"]
    assert rows[-1][:2] == ["Total", str(sum(truth.values()))]
    assert {r[0]: int(r[1]) for r in rows[1:-1]} == {k or "(empty)": v for k, v in truth.items()}
    ages = [float(r[2]) for r in rows[1:-1]]
    assert ages == sorted(ages)
    code, out = run("org", "report", definition, "--org", small_org_path, "--format", "json")
    assert code == 0, out
    doc = json.loads(out)
    assert doc["record_count"] == sum(truth.values())
    assert [g["keys"][0]["label"] for g in doc["groups"]] == [r[0] for r in rows[1:-1]]


def test_table_shows_groups_and_total(definition, small_org_path):
    code, out = run("org", "report", definition, "--org", small_org_path)
    assert code == 0, out
    assert "Fastest closing states, 2023" in out and "Total" in out and "AVG(Age)" in out


def test_salesforce_gives_the_same_json(definition, small_org_path, salesforce_server, monkeypatch):  # noqa: F811
    monkeypatch.setattr(
        "crm_tui.cli.org_report.open_salesforce",
        lambda env_file, domain: open_backend("salesforce", small_org_path, salesforce_server),
    )
    code, local = run("org", "report", definition, "--org", small_org_path, "--format", "json")
    assert code == 0, local
    code, remote = run(
        "org", "report", definition, "--salesforce", "--format", "json", "--today", "2025-01-15"
    )
    assert code == 0, remote
    a, b = json.loads(local), json.loads(remote)
    assert [g["keys"] for g in a["groups"]] == [g["keys"] for g in b["groups"]]
    assert [g["values"]["AVG(Age)"] for g in a["groups"]] == pytest.approx(
        [g["values"]["AVG(Age)"] for g in b["groups"]]
    )


@pytest.mark.parametrize(
    "text, message",
    [
        (
            'object = "Case"\ngroupings = ["Description"]\n',
            "Grouping 'Description': Description is a long text",
        ),
        (
            'object = "Case"\nsummaries = ["SUM(Subject)"]\n',
            "Summary SUM(Subject): Subject is text",
        ),
        (
            'object = "Case"\ncolumns = ["Account.Colour"]\n',
            "Column 'Account.Colour': unknown field",
        ),
        ("object = [", "Report definition is not valid TOML"),
    ],
)
def test_bad_definition_is_one_line(tmp_path, capsys, small_org_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(SystemExit) as exit_info:
        main(["org", "report", str(path), "--org", str(small_org_path)])
    assert exit_info.value.code == 1
    err = capsys.readouterr().err
    assert err.startswith(f"crm-tui: {message}") and err.count("\n") == 1, err


def test_the_table_keeps_its_title_and_headers_whole(tmp_path, small_org_path):
    """The title is one line over the table (not wrapped into the table's width), the
    headers are not cut into pieces, and a duration's summary says its unit."""
    name = "Average age of closed cases by shipping state over the last two years"
    path = tmp_path / "long.toml"
    path.write_text(BRI.replace("Fastest closing states, 2023", name))
    code, out = run("org", "report", path, "--org", small_org_path)
    assert code == 0, out
    lines = out.splitlines()
    assert any(name in line and "records" in line for line in lines), out
    assert "AVG(Age) (hours)" in out
    assert "Account: Shipping State" in out

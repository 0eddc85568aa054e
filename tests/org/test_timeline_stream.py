"""The cases' timeline draws from its own stream: a change to the texts moves no case in
time, to another agent or to another status, and gives or takes no chat."""

from __future__ import annotations

import sqlite3

from crm_tui.org.generate import chats
from crm_tui.org.generate.build_file import generate


def timeline(path) -> list[tuple]:
    """Per case: when it opened, its status, its owner and its chats (the priority follows
    the words: a case the customer calls urgent is High)."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute(
            'SELECT c.CreatedDate, c.Status, c.OwnerId, count(t.Id) FROM "Case" c '
            "LEFT JOIN LiveChatTranscript t ON t.CaseId = c.Id GROUP BY c.Id "
            "ORDER BY c.CaseNumber"
        ).fetchall()
    finally:
        conn.close()


def test_a_new_phrasing_moves_no_case(tmp_path, monkeypatch):
    before = tmp_path / "before.sqlite"
    generate(before, seed=3, scale=0.3)
    # one more way to greet, with choices of its own: the texts draw differently from
    # here on, and chats take other optional steps (so other lengths)
    greeting = "[Hey|Hiya|Hello] [there|again], {first}[!|.]"
    monkeypatch.setattr(chats, "GREET_OPENS", (*chats.GREET_OPENS, greeting))
    after = tmp_path / "after.sqlite"
    generate(after, seed=3, scale=0.3)
    assert chat_bodies(after) != chat_bodies(before)  # the texts did change
    assert timeline(after) == timeline(before)


def chat_bodies(path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [b for (b,) in conn.execute("SELECT Body FROM LiveChatTranscript ORDER BY Id")]
    finally:
        conn.close()

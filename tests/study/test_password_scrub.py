"""A server's refusal is shown without the store's password, and without mangling the
rest of the message where the password's text happens to occur inside another word."""

from __future__ import annotations

from sqlalchemy.exc import DBAPIError

from crm_tui.study.store.db import _scrubbed


def refusal(text: str) -> DBAPIError:
    return DBAPIError("SELECT 1", {}, Exception(text))


def test_the_password_is_hidden_where_it_stands_alone():
    said = _scrubbed(refusal('FATAL: password "s3cret" rejected for user ann'), "s3cret")
    assert said == 'FATAL: password "***" rejected for user ann'


def test_a_short_password_leaves_the_words_it_is_part_of():
    text = 'connection to server at "127.0.0.1", port 5433 failed: password p is wrong'
    said = _scrubbed(refusal(text), "p")
    assert said == 'connection to server at "127.0.0.1", port 5433 failed: password *** is wrong'


def test_a_longer_password_is_hidden_even_run_into_other_text():
    said = _scrubbed(refusal("bad option password=s3cretx rejected"), "s3cret")
    assert "s3cret" not in said and said == "bad option password=***x rejected"

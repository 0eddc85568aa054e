"""A month or state answer picked from a list: nothing picked is no answer, never the list's
placeholder value, and a category must be picked before a flag is sent."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from textual.app import App, ComposeResult

from crm_tui.tui.study.answer import AnswerEntry

PACKAGE = Path(__file__).resolve().parents[3] / "crm_tui"


class OneAnswer(App[None]):
    def __init__(self, answer_type: str) -> None:
        super().__init__()
        self.answer_type = answer_type

    def compose(self) -> ComposeResult:
        yield AnswerEntry(self.answer_type, None, id="answer")


@pytest.mark.parametrize("answer_type", ["month", "state"])
async def test_nothing_picked_is_no_answer_yet(answer_type):
    app = OneAnswer(answer_type)
    async with app.run_test() as pilot:
        await pilot.pause()
        entry = app.query_one(AnswerEntry)
        assert entry.answer == ""
        assert (entry.problem() or "").startswith("No answer yet")


def test_no_module_compares_with_the_select_placeholder_textual_no_longer_has():
    """`Select.BLANK` is False in this Textual; an empty Select's value is `Select.NULL`.
    A comparison with BLANK never sees "nothing picked"."""
    uses = [
        f"{path.relative_to(PACKAGE.parent)}:{node.lineno}"
        for path in PACKAGE.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Attribute) and node.attr == "BLANK"
    ]
    assert uses == []

"""The package's layout rules that no linter checks: one name per module, a docstring each."""

from __future__ import annotations

import ast
from collections import defaultdict

from tests.helpers.paths import ROOT

PACKAGE = ROOT / "crm_tui"


def test_no_two_modules_share_a_name():
    seen: defaultdict[str, list[str]] = defaultdict(list)
    for path in PACKAGE.rglob("*.py"):
        if path.name != "__init__.py":
            seen[path.stem].append(str(path.relative_to(ROOT)))
    assert {name: paths for name, paths in seen.items() if len(paths) > 1} == {}


def test_every_module_says_what_it_is_for():
    bare = [
        str(path.relative_to(ROOT))
        for path in PACKAGE.rglob("*.py")
        if ast.get_docstring(ast.parse(path.read_text())) is None
    ]
    assert bare == []


def test_styles_live_next_to_the_module_that_uses_them():
    """One way to style: a screen's `.tcss` beside its module, never inline CSS strings."""
    tui = PACKAGE / "tui"
    orphans = [
        str(p.relative_to(ROOT)) for p in tui.rglob("*.tcss") if not p.with_suffix(".py").exists()
    ]
    inline = [
        str(p.relative_to(ROOT))
        for p in tui.rglob("*.py")
        if "DEFAULT_CSS" in p.read_text() or "\n    CSS = " in p.read_text()
    ]
    assert (orphans, inline) == ([], [])

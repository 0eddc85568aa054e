"""The documentation cannot drift from the product: every command and option is in the CLI
reference the site generates, the screenshots are the snapshot tests' pictures, and every
`crm-tui ...` command the pages name exists."""

from __future__ import annotations

import importlib.util
import re

import click
import pytest

from crm_tui.cli.main import cli
from tests.helpers.paths import ROOT

DOCS = ROOT / "docs"
PAGES = sorted((DOCS / "site-src").glob("*.md"))


def commands(
    command: click.Command, path: tuple[str, ...] = ("crm-tui",)
) -> list[tuple[tuple[str, ...], click.Command]]:
    """Every command under `command` (itself included) with its path; hidden ones left out."""
    found = [(path, command)]
    if isinstance(command, click.Group):
        for name, sub in sorted(command.commands.items()):
            if not sub.hidden:
                found += commands(sub, (*path, name))
    return found


def directive_options() -> dict[str, str]:
    """The `::: mkdocs-click` block of the CLI page: what it generates, and how."""
    text = (DOCS / "site-src" / "cli.md").read_text(encoding="utf-8")
    return dict(re.findall(r"^\s+:(\w+): (.+)$", text, re.MULTILINE))


def generated_reference() -> str:
    """The CLI reference as the site builds it (mkdocs-click, with the page's options)."""
    from mkdocs_click._docs import make_command_docs

    options = directive_options()
    assert (options["module"], options["command"]) == ("crm_tui.cli.main", "cli")
    lines = make_command_docs(
        prog_name=options["prog_name"],
        command=cli,
        depth=int(options.get("depth", 0)),
        style=options.get("style", "plain"),
        list_subcommands=options.get("list_subcommands") == "true",
    )
    return "\n".join(lines)


def sections(reference: str) -> dict[str, str]:
    """Each command's part of the reference, keyed by its usage line's command path."""
    parts = re.split(r"^\*\*Usage:\*\*\s*$", reference, flags=re.MULTILINE)[1:]
    by_path = {}
    for part in parts:
        usage = re.search(r"```text\n(.+?)\n", part)
        assert usage, part[:200]
        by_path[usage.group(1).split(" [")[0].strip()] = part
    return by_path


def test_every_command_and_option_is_in_the_generated_cli_reference():
    by_path = sections(generated_reference())
    missing = []
    for path, command in commands(cli):
        name = " ".join(path)
        if name not in by_path:
            missing.append(name)
            continue
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden:
                for opt in [*param.opts, *param.secondary_opts]:
                    if not re.search(rf"(^|[\s,/]){re.escape(opt)}\b", by_path[name]):
                        missing.append(f"{name} {opt}")
    assert not missing, "not in the CLI reference: " + "; ".join(missing)


def test_hidden_commands_stay_out_of_the_reference():
    hidden = [
        " ".join((*path, name))
        for path, command in commands(cli)
        if isinstance(command, click.Group)
        for name, sub in command.commands.items()
        if sub.hidden
    ]
    by_path = sections(generated_reference())
    assert not [name for name in hidden if name in by_path]


def test_the_screenshots_are_the_snapshot_tests_pictures():
    spec = importlib.util.spec_from_file_location("screenshots", DOCS / "screenshots.py")
    assert spec and spec.loader
    screenshots = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(screenshots)
    assert screenshots.stale() == [], "run: python docs/screenshots.py"


def command_mentions(text: str) -> list[tuple[int, list[str]]]:
    """The words after `crm-tui` wherever a page shows a command: in inline code
    (`crm-tui study invite ...`) and on code-block lines that start with it."""
    found = []
    in_block = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            in_block = not in_block
            continue
        if in_block:
            shown = [line.strip()] if line.strip().startswith("crm-tui ") else []
        else:
            shown = re.findall(r"`(crm-tui [^`]*)`", line)
        for command in shown:
            words = []
            for word in command.split()[1:]:
                if not re.fullmatch(r"[a-z][a-z-]*", word):
                    break
                words.append(word)
            if words:
                found.append((number, words))
    return found


@pytest.mark.parametrize(
    "page", [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *PAGES], ids=lambda p: p.name
)
def test_every_command_a_page_shows_exists(page):
    known = {" ".join(path[1:]) for path, _ in commands(cli)}
    wrong = []
    for number, words in command_mentions(page.read_text(encoding="utf-8")):
        command = cli.commands.get(words[0])
        if command is None or command.hidden:
            wrong.append(f"{page.name}:{number}: crm-tui {words[0]}")
        elif isinstance(command, click.Group) and len(words) > 1:
            if " ".join(words[:2]) not in known:
                wrong.append(f"{page.name}:{number}: crm-tui {' '.join(words[:2])}")
    assert not wrong, "commands that do not exist (or are hidden): " + "; ".join(wrong)

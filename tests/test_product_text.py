"""Product text speaks of the product and its users, never of how it was made.

README, changelog, contributing guide, documentation, code (comments and docstrings
included), tests, data files, pyproject and CI carry no work-tracking words: tracker
numbers, work rounds and sittings, the people who built it or the host they built it on,
commit hashes, or section numbers of documents readers cannot open. Link to CRMArena's
repository or paper instead, or say what is meant ("CRMArena's results file format").
Each finding is named as file:line."""

from __future__ import annotations

import re
from pathlib import Path

from tests.helpers.paths import ROOT

# --- the patterns (this block is not scanned: it names what it looks for) ---
PATTERNS = {
    "an issue number": r"\bissues? \d+|\bissue[-#]\d+|\bissue #\d+|(?:^|[\s(])#\d{1,3}\b",
    "a work round": r"\b(?:this|previous|earlier|last|that|next) rounds?\b|\brounds? before\b"
    r"|\bper-round\b|\bround \d+\b",
    "a work session": r"\b(?:previous|earlier|last|another) sessions?\b|\bby a session\b",
    "an engineer": r"\bengineers?\b",
    "this machine": r"\bthis machine\b|\bproject(?:'s)? machine\b|\bthe project's machine\b",
    "a spec reference": r"\bspec(?: section)? \(?\d+(?:\.\d+)?\b|\bdecisions? \d+\.\d+\b"
    r"|\bcrmarena-spec\b|\bthe spec(?:'s)?\b",
    "a commit hash": r"\b(?:commit|git archive|archive of) `?[0-9a-f]{7,40}\b",
}
MEANT = (  # what the patterns are for
    "as issue 17 asked",
    "every issue-19 measure",
    "(#12)",
    "measured this round",
    "the previous round's code",
    "in the round before",
    "filed by a session",
    "in the previous session",
    "six other engineers' jobs",
    "on this machine",
    "the 2-core project machine",
    "follows spec 4.3",
    "written from the spec (4.3 NCR)",
    "the study (spec section 9)",
    "crmarena-spec section 10.1",
    "from the spec's description",
    "decision 14.2",
    "git archive adda84b",
)
NOT_MEANT = (  # product words they leave alone
    "a round trip per call",
    "round(x, 2) and rounding",
    "alternating round by round",
    "each round alternating four runs",
    "a browser session",
    "this session works for one profile",
    "the study session ends",
    "the 2-core CI machine",
    "python/mypy#11401",
    "color #333333",
    "order #12345",
    "the issue most reported for the product",
    "10 issues",
)
# --- end of the patterns ---

FOUND = re.compile("|".join(f"(?P<p{i}>{p})" for i, p in enumerate(PATTERNS.values())), re.I)
NAMES = list(PATTERNS)

TOP_FILES = ("README.md", "CHANGELOG.md", "CONTRIBUTING.md", "pyproject.toml", ".ci/run")
FOLDERS = ("docs", "crm_tui", "tests", "tasks", "annotations", ".ci")
SUFFIXES = {".py", ".md", ".toml", ".yml", ".yaml", ".txt", ".cfg", ".ini", ""}
SKIPPED_PARTS = {"__pycache__", "__snapshots__", "_site", ".venv"}


def product_files() -> list[Path]:
    files = {ROOT / name for name in TOP_FILES}
    for folder in FOLDERS:
        for path in (ROOT / folder).rglob("*"):
            if (
                path.is_file()
                and path.suffix in SUFFIXES
                and not SKIPPED_PARTS & set(path.relative_to(ROOT).parts)
            ):
                files.add(path)
    return sorted(path for path in files if path.is_file())


def own_pattern_lines() -> range:
    lines = Path(__file__).read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("# --- the patterns"))
    end = next(i for i, line in enumerate(lines) if line.startswith("# --- end of the patterns"))
    return range(start + 1, end + 2)


def hits() -> list[str]:
    found = []
    for path in product_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        skip = own_pattern_lines() if path == Path(__file__) else range(0)
        for number, line in enumerate(text.splitlines(), 1):
            if number in skip:
                continue
            for match in FOUND.finditer(line):
                what = NAMES[int(next(k for k, v in match.groupdict().items() if v)[1:])]
                found.append(
                    f"{path.relative_to(ROOT)}:{number}: {what}: {match.group().strip()!r}"
                )
    return found


def test_the_patterns_find_what_they_are_for():
    assert [text for text in MEANT if not FOUND.search(text)] == []


def test_the_patterns_leave_product_words_alone():
    assert [text for text in NOT_MEANT if FOUND.search(text)] == []


def test_no_word_about_how_the_software_was_made():
    found = hits()
    assert not found, f"{len(found)} found:\n" + "\n".join(found)

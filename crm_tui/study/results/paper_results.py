"""The paper's published agent results, kept as data in annotations/."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from crm_tui import paths
from crm_tui.errors import CrmTuiError

FRAMEWORK_LABELS = {"act": "Act", "react": "ReAct", "tool_call": "Function Calling"}
# The paper scores every agent on all of CRMArena's queries: 130 per family, 1,170 in all.
ITEMS_PER_FAMILY = 130


@dataclass(frozen=True)
class PaperRow:
    framework: str  # a run_tasks.py strategy: act, react, tool_call
    model: str
    note: str  # "v2" (added in paper v2), "prompt" (FC in prompt mode), ...
    success: dict[str, float]  # family abbreviation or "ALL" -> success % (KQA: F1 x 100)

    def items(self, family: str) -> int:
        """The queries a success % is over: a family's, or all of them for "ALL"."""
        families = len(self.success) - 1 if family == "ALL" else 1
        return ITEMS_PER_FAMILY * families

    @property
    def label(self) -> str:
        note = f" ({self.note})" if self.note else ""
        return f"{self.model} {FRAMEWORK_LABELS[self.framework]}{note} [paper]"


def load_paper_results(path: Path | None = None) -> list[PaperRow]:
    path = path or paths.bundled_dir("annotations") / "paper_results.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise CrmTuiError(f"{path}: cannot read the paper's results ({exc})") from exc
    columns = data.get("columns", [])
    rows = []
    for index, row in enumerate(data.get("rows", [])):
        values = row.get("values", [])
        if row.get("framework") not in FRAMEWORK_LABELS or len(values) != len(columns):
            raise CrmTuiError(
                f"{path}: row {index}: needs a framework among "
                f"{', '.join(FRAMEWORK_LABELS)} and {len(columns)} values"
            )
        rows.append(
            PaperRow(
                framework=row["framework"],
                model=str(row["model"]),
                note=str(row.get("note", "")),
                success=dict(zip(columns, map(float, values))),
            )
        )
    return rows

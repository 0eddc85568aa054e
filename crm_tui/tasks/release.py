"""Releasing a task set (an audited version, say) or a study's realism ratings as files
others can use: CRMArena's JSON array, JSON Lines, a Hugging Face dataset (`datasets`'
`save_to_disk`, one split "test") and a dataset card (README.md with the Hub's YAML
header: licence, size category, features, task categories, and the audit's change log).
`push_to_hub` sends the saved dataset and its card to a Hub repository.

A task set's `crm_tui` metadata travels as one JSON text column, so a released set
imports back row for row (`load_released`), content hash included. Tokens are read by the
caller and only handed to the Hub client: never printed, written or put in an error.
The `datasets` library loads only here, when a release is written or read.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crm_tui.errors import CrmTuiError
from crm_tui.tasks.taskset import (
    CRMARENA,
    OURS,
    TaskSet,
    imported,
    validate_row,
    write_taskset,
)
from crm_tui.tasks.versions import Change

DATASET_DIR = "dataset"  # the `save_to_disk` folder inside a release
SPLIT = "test"  # CRMArena's dataset has one split, "test"
CHANGES_FILE = "changes.json"
CARD_FILE = "README.md"
CRMARENA_LICENSE = "cc-by-nc-4.0"  # the licence of CRMArena's dataset
DEFAULT_LICENSE = "apache-2.0"

# (name, dtype) per column; a dict dtype is a struct of string fields.
TASK_FEATURES: list[tuple[str, str | list[str]]] = [
    ("idx", "int64"),
    ("task", "string"),
    ("query", "string"),
    ("answer", "string"),
    ("metadata", ["required", "optional"]),
    ("reward_metric", "string"),
    (OURS, "string"),
]
FIELD_NOTES = {
    "idx": "the query's number (CRMArena's idx)",
    "task": "the task family",
    "query": "the question as the persona asks it",
    "answer": "the gold answer; null is the None answer",
    "metadata": "CRMArena's `required` and `optional` context",
    "reward_metric": "exact_match, or fuzzy_match (token F1) for knowledge_qa",
    OURS: "crm-tui's metadata as a JSON text: persona, answer type, how the gold was made, "
    "the org fingerprint, the parent set and, on a corrected row, what the audit changed",
}


@dataclass(frozen=True)
class Release:
    folder: Path
    rows: int
    files: tuple[str, ...]


def size_category(n: int) -> str:
    """The Hub's size category for `n` rows."""
    bounds = [(1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K")]
    bounds += [(1_000_000, "100K<n<1M")]
    return next((label for bound, label in bounds if n < bound), "n>1M")


def check_release_folder(out: Path, force: bool) -> None:
    """One line, and nothing written, for a folder that exists without `force`."""
    if out.exists() and not force:
        raise CrmTuiError(f"{out} exists; add --force to replace it (nothing was written)")
    if out.exists() and not out.is_dir():
        raise CrmTuiError(f"{out} is a file, not a release folder (nothing was written)")


def _yaml_features(features: Sequence[tuple[str, str | list[str]]]) -> list[str]:
    lines = []
    for name, dtype in features:
        lines.append(f"  - name: {name}")
        if isinstance(dtype, list):
            lines.append("    struct:")
            for part in dtype:
                lines += [f"    - name: {part}", "      dtype: string"]
        else:
            lines.append(f"    dtype: {dtype}")
    return lines


def card_header(
    *,
    license_id: str,
    pretty_name: str,
    rows: int,
    task_categories: Sequence[str],
    tags: Sequence[str],
    features: Sequence[tuple[str, str | list[str]]],
) -> str:
    """The Hub's YAML header (JSON-quoted strings are valid YAML)."""
    lines = [
        "---",
        f"license: {license_id}",
        f"pretty_name: {json.dumps(pretty_name)}",
        "language:",
        "- en",
        "size_categories:",
        f"- {size_category(rows)}",
        "task_categories:",
        *[f"- {c}" for c in task_categories],
        "tags:",
        *[f"- {t}" for t in tags],
        "configs:",
        "- config_name: default",
        "  data_files:",
        f"  - split: {SPLIT}",
        f"    path: data/{SPLIT}-*",
        "dataset_info:",
        "  features:",
        *_yaml_features(features),
        "  splits:",
        f"  - name: {SPLIT}",
        f"    num_examples: {rows}",
        "---",
    ]
    return "\n".join(lines) + "\n"


def _cell(value: object) -> str:
    text = "null" if value is None else str(value)
    return text.replace("|", "\\|").replace("\n", " ")


def change_log(changes: Sequence[Change]) -> str:
    if not changes:
        return "No query was changed: this is the set as first published.\n"
    lines = [
        "| idx | task | decision | category | original gold | new gold | decided by | when | note |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for c in changes:
        new = _cell(c.new_gold) if c.decision == "correct" else ""
        lines.append(
            f"| {c.idx} | {c.task} | {c.decision} | {c.category} | {_cell(c.old_gold)} | "
            f"{new} | {_cell(', '.join(c.decided_by))} | {c.decided_at} | {_cell(c.note or '')} |"
        )
    return "\n".join(lines) + "\n"


def task_card(
    taskset: TaskSet,
    *,
    title: str,
    license_id: str,
    changes: Sequence[Change],
    parent_hash: str | None,
) -> str:
    counts = {d: sum(c.decision == d for c in changes) for d in ("correct", "drop", "keep")}
    per_family = "\n".join(
        f"| {task} | {len(rows):,} |" for task, rows in taskset.by_task().items()
    )
    fields = "\n".join(f"| `{name}` | {FIELD_NOTES[name]} |" for name, _ in TASK_FEATURES)
    origin = (
        "CRMArena's own queries (their Ids point into CRMArena's Salesforce org)"
        if taskset.fingerprint == CRMARENA
        else f"queries generated by crm-tui from the org {taskset.fingerprint}"
    )
    lineage = (
        f"It was made from the task set `{parent_hash}` by an audit: "
        f"{counts['correct']} gold answers corrected, {counts['drop']} queries dropped as "
        f"ill-posed, {counts['keep']} reviewed and kept.\n"
        if parent_hash
        else ""
    )
    return (
        card_header(
            license_id=license_id,
            pretty_name=title,
            rows=len(taskset),
            task_categories=["question-answering", "table-question-answering"],
            tags=["crm", "crmarena", "salesforce", "agents", "audited"],
            features=TASK_FEATURES,
        )
        + f"\n# {title}\n\n"
        + f"{len(taskset):,} queries in CRMArena's instance format: {origin}. "
        + f"Content hash `{taskset.content_hash}`.\n{lineage}\n"
        + "## Files\n\n"
        + "- `tasks.json`: CRMArena's JSON array; `tasks.jsonl`: one row a line\n"
        + f"- `{DATASET_DIR}/`: the Hugging Face dataset (`datasets.load_from_disk`), "
        + f"split `{SPLIT}`\n"
        + f"- `{CHANGES_FILE}`: the audit's decisions, one object each\n\n"
        + "## Fields\n\n| Field | Meaning |\n|---|---|\n"
        + fields
        + "\n\n## Queries per task\n\n| Task | Queries |\n|---|---|\n"
        + per_family
        + "\n\n## Change log\n\n"
        + change_log(changes)
    )


def _hf_rows(taskset: TaskSet) -> list[dict[str, Any]]:
    rows = []
    for inst in sorted(taskset.instances, key=lambda i: i.idx):
        row = inst.to_row()
        row[OURS] = json.dumps(inst.extra, ensure_ascii=False)  # in its order: as written
        rows.append(row)
    return rows


def _quiet_datasets() -> None:
    """No progress bars or notices from `datasets`: a command prints its own one line."""
    import datasets

    datasets.disable_progress_bars()
    datasets.logging.set_verbosity_error()


def _features(spec: Sequence[tuple[str, str | list[str]]]) -> Any:
    from datasets import Features, Value

    return Features(
        {
            name: {part: Value("string") for part in dtype}
            if isinstance(dtype, list)
            else Value(dtype)
            for name, dtype in spec
        }
    )


def save_release(
    out: Path,
    *,
    force: bool,
    rows: list[dict[str, Any]],
    features: Sequence[tuple[str, str | list[str]]],
    card: str,
    files: dict[str, str],
    write: dict[str, Any] | None = None,
) -> Release:
    """Write the release into a fresh folder beside `out`, then move it into place (an
    existing one, with `force`, is replaced only once the new one is complete)."""
    from datasets import Dataset, DatasetDict

    _quiet_datasets()
    check_release_folder(out, force)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = out.with_name(f".{out.name}.partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    try:
        dataset = Dataset.from_list(rows, features=_features(features))
        DatasetDict({SPLIT: dataset}).save_to_disk(str(staging / DATASET_DIR))
        (staging / CARD_FILE).write_text(card, encoding="utf-8")
        for name, text in files.items():
            (staging / name).write_text(text, encoding="utf-8")
        for name, taskset in (write or {}).items():
            write_taskset(taskset, staging / name)
        if out.exists():
            shutil.rmtree(out)
        staging.rename(out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    listed = sorted(p.name for p in out.iterdir())
    return Release(out, len(rows), tuple(listed))


def export_taskset(
    taskset: TaskSet,
    out: Path,
    *,
    force: bool = False,
    title: str | None = None,
    license_id: str | None = None,
    changes: Sequence[Change] = (),
    parent_hash: str | None = None,
) -> Release:
    """The task set as a release folder: tasks.json, tasks.jsonl, dataset/, README.md and
    changes.json. The rows are written as `tasks import` writes them, so a release
    imports back byte for byte."""
    taskset = imported(taskset)
    license_id = license_id or (
        CRMARENA_LICENSE if taskset.fingerprint == CRMARENA else DEFAULT_LICENSE
    )
    title = title or (
        "CRMArena, audited" if taskset.fingerprint == CRMARENA else "crm-tui task set"
    )
    card = task_card(
        taskset, title=title, license_id=license_id, changes=changes, parent_hash=parent_hash
    )
    log = {"parent": parent_hash, "changes": [c.to_json() for c in changes]}
    return save_release(
        out,
        force=force,
        rows=_hf_rows(taskset),
        features=TASK_FEATURES,
        card=card,
        files={CHANGES_FILE: json.dumps(log, indent=2, ensure_ascii=False) + "\n"},
        write={"tasks.json": taskset, "tasks.jsonl": taskset},
    )


def is_release(path: Path) -> bool:
    """A folder saved by `save_to_disk`, or a release folder holding one."""
    return path.is_dir() and (
        (path / "dataset_dict.json").is_file() or (path / DATASET_DIR).is_dir()
    )


def load_released(path: Path) -> TaskSet:
    """A task set from a release folder (or its dataset folder), validated row by row."""
    from datasets import DatasetDict, load_from_disk

    _quiet_datasets()
    folder = path / DATASET_DIR if (path / DATASET_DIR).is_dir() else path
    try:
        loaded = load_from_disk(str(folder))
    except (FileNotFoundError, ValueError) as exc:
        raise CrmTuiError(f"{path}: not a saved dataset ({exc}); nothing was imported") from None
    dataset = loaded[SPLIT] if isinstance(loaded, DatasetDict) else loaded
    instances = []
    for index, row in enumerate(dataset):
        row = dict(row)
        extra = row.get(OURS)
        if isinstance(extra, str):
            try:
                row[OURS] = json.loads(extra)
            except json.JSONDecodeError:
                raise CrmTuiError(
                    f"{path}: row {index}: field {OURS!r} is not JSON; nothing was imported"
                ) from None
        elif extra is None:
            row.pop(OURS, None)
        instances.append(validate_row(row, index, folder))
    if not instances:
        raise CrmTuiError(f"{path}: no task instances in the dataset")
    fingerprints = {inst.extra.get("org", CRMARENA) for inst in instances}
    if len(fingerprints) > 1:
        raise CrmTuiError(f"{path}: rows come from different orgs")
    taskset = TaskSet(instances, fingerprints.pop(), path)
    stored = {inst.extra.get("taskset_hash") for inst in instances} - {None}
    if stored and stored != {taskset.content_hash}:
        raise CrmTuiError(f"{path}: the rows do not match the set's recorded content hash")
    return taskset


def push_release(
    folder: Path, repo: str, token: str, *, endpoint: str | None, private: bool = False
) -> str:
    """Push a saved release (its dataset and card) to the Hub; the dataset's address.
    Without the network: one line, and the saved folder stays as it is."""
    from crm_tui.tasks.crmarena_hub import DEFAULT_ENDPOINT
    from crm_tui.tasks.crmarena_hub import _answers as hub_answers

    where = endpoint or DEFAULT_ENDPOINT
    if not hub_answers(where):
        raise CrmTuiError(
            f"could not reach the Hugging Face Hub at {where}: nothing was pushed "
            f"(the release is saved in {folder}; push again when online)"
        )
    try:
        from datasets import load_from_disk
        from huggingface_hub import HfApi

        _quiet_datasets()
        api = HfApi(endpoint=where, token=token)
        api.create_repo(repo, repo_type="dataset", private=private, exist_ok=True)
        loaded = load_from_disk(str(folder / DATASET_DIR))
        loaded.push_to_hub(repo, token=token, private=private)
        api.upload_file(
            path_or_fileobj=str(folder / CARD_FILE),
            path_in_repo=CARD_FILE,
            repo_id=repo,
            repo_type="dataset",
        )
    except Exception as exc:  # the Hub's errors vary; one line, the token never in it
        message = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise CrmTuiError(f"pushing to {repo} failed: {message.replace(token, '***')}") from None
    return f"{where.rstrip('/')}/datasets/{repo}"

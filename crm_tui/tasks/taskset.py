"""Task sets in CRMArena's instance format: read, validate, write, import, pin to an org.

A row is `idx`, `task` (`type` in CRMArena's paper-era file), `query`, `answer` (a string
or null; CRMArena-Pro's rows: a list, `[null]` where nothing qualifies, and a `persona`
that the simulated customer plays, `pro_families`), `metadata` {`required`, `optional`},
`reward_metric`, plus our own fields under
the single key `crm_tui` (persona, answer type, hidden parameters, the org fingerprint and
the task set's content hash), which CRMArena's tools ignore. Files are a JSON array or
JSONL. Every row is validated; one bad row rejects the whole file, naming file, row and
field. Writes go to a temporary file moved into place.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crm_tui.atomic import write_text_atomically
from crm_tui.errors import CrmTuiError
from crm_tui.org.store.orgstore import OrgStore
from crm_tui.tasks.families import Family, families, get_family
from crm_tui.tasks.input_files import loads, read_input
from crm_tui.tasks.pro_families import pro_families, pro_family_as_family, pro_only_names

CRMARENA = "crmarena"  # fingerprint of CRMArena's own sets: Ids point into its Salesforce org
OURS = "crm_tui"
ROW_KEYS = {"idx", "task", "type", "query", "answer", "metadata", "reward_metric", "persona", OURS}
USER_PERSONA = "user_persona"  # in the `crm_tui` key: the persona the simulated customer plays
HASH_KEY = "taskset_hash"
MAX_IDX = 2**31 - 1


# A stored gold: a string, None (the None answer) or CRMArena-Pro's list
Gold = str | list[str | None] | None


@dataclass
class Instance:
    idx: int
    task: str
    query: str
    answer: str | None
    required: str
    optional: str
    reward_metric: str
    extra: dict[str, Any] = field(default_factory=dict)  # the `crm_tui` key
    # CRMArena-Pro's list answer as the file gives it (`answer` is then its items joined
    # with ", ", None for `[null]`); None for a CRMArena row
    answer_list: list[str | None] | None = None

    @property
    def family(self) -> Family:
        if self.task in pro_only_names():
            return pro_family_as_family(self.task)
        return get_family(self.task)

    @property
    def user_persona(self) -> str | None:
        """The persona the simulated customer plays (CRMArena-Pro's `persona`), if given."""
        persona = self.extra.get(USER_PERSONA)
        return persona if isinstance(persona, str) else None

    @property
    def persona(self) -> str:
        return self.family.persona

    @property
    def answer_type(self) -> str:
        return self.family.answer_type

    @property
    def params(self) -> dict[str, Any]:
        """Hidden parameters (case/product Id, today, period, ...); empty when imported."""
        params: dict[str, Any] = self.extra.get("params", {})
        return params

    def to_row(self) -> dict[str, Any]:
        row = {
            "idx": self.idx,
            "task": self.task,
            "query": self.query,
            "answer": self.answer if self.answer_list is None else list(self.answer_list),
            "metadata": {"required": self.required, "optional": self.optional},
            "reward_metric": self.reward_metric,
        }
        if self.extra:
            row[OURS] = self.extra
        return row


@dataclass
class TaskSet:
    instances: list[Instance]
    fingerprint: str | None  # the org it was generated from, CRMARENA, or None
    source: Path | None = None

    @property
    def content_hash(self) -> str:
        """SHA-256 over the rows (without the stored hash itself), in idx order."""
        h = hashlib.sha256()
        for inst in sorted(self.instances, key=lambda i: i.idx):
            row = inst.to_row()
            if OURS in row:
                row[OURS] = {k: v for k, v in row[OURS].items() if k != HASH_KEY}
            h.update(json.dumps(row, sort_keys=True, ensure_ascii=False).encode())
        return h.hexdigest()

    def by_task(self) -> dict[str, list[Instance]]:
        out: dict[str, list[Instance]] = {name: [] for name in (*families(), *pro_only_names())}
        for inst in self.instances:
            out[inst.task].append(inst)
        return {k: v for k, v in out.items() if v}

    def __len__(self) -> int:
        return len(self.instances)

    @property
    def name(self) -> str:
        return str(self.source) if self.source else "the task set"


# ----------------------------------------------------------------- validation
def _row_error(path: Path, index: int, field_name: str, message: str) -> CrmTuiError:
    return CrmTuiError(
        f"{path}: row {index}: field {field_name!r}: {message}; nothing was imported"
    )


def validate_row(row: Any, index: int, path: Path) -> Instance:
    """One row as an Instance, or a CrmTuiError naming the file, row index and field."""
    if not isinstance(row, dict):
        raise _row_error(path, index, "(row)", "must be a JSON object")
    unknown = sorted(set(row) - ROW_KEYS)
    if unknown:
        raise _row_error(path, index, unknown[0], "is not a CRMArena instance field")
    if "task" in row and "type" in row and row["task"] != row["type"]:
        raise _row_error(path, index, "task", "differs from field 'type'")
    task_key = "task" if "task" in row else "type"
    task = row.get(task_key)
    if not isinstance(task, str) or task not in pro_families():
        raise _row_error(
            path,
            index,
            task_key,
            f"{task!r} is not one of CRMArena's nine tasks ({', '.join(families())}) "
            f"nor one CRMArena-Pro adds ({', '.join(pro_only_names())})",
        )
    family = pro_family_as_family(task) if task in pro_only_names() else families()[task]
    idx = row.get("idx")
    if not isinstance(idx, int) or isinstance(idx, bool) or not 0 <= idx <= MAX_IDX:
        raise _row_error(path, index, "idx", f"must be an integer from 0 to {MAX_IDX}")
    query = row.get("query")
    if not isinstance(query, str) or not query.strip():
        raise _row_error(path, index, "query", "must be a non-empty string")
    if "answer" not in row:
        raise _row_error(path, index, "answer", "is missing")
    answer = row["answer"]
    answer_list: list[str | None] | None = None
    if isinstance(answer, list):
        answer, answer_list = gold_fields(_answer_list(answer, path, index))
    elif task in pro_only_names():
        raise _row_error(path, index, "answer", f"must be a list (CRMArena-Pro's {task})")
    if answer is None and answer_list is None and not family.false_presupposition:
        raise _row_error(path, index, "answer", f"is null, but {task} always has an answer")
    if answer is not None and (not isinstance(answer, str) or not answer.strip()):
        raise _row_error(path, index, "answer", "must be a non-empty string or null")
    metadata = row.get("metadata")
    if not isinstance(metadata, dict):
        raise _row_error(
            path, index, "metadata", "must be an object with 'required' and 'optional'"
        )
    for part in ("required", "optional"):
        if not isinstance(metadata.get(part), str):
            raise _row_error(path, index, f"metadata.{part}", "must be a string")
    if row.get("reward_metric") != family.metric:
        raise _row_error(
            path,
            index,
            "reward_metric",
            f"must be {family.metric!r} for {task}, not {row.get('reward_metric')!r}",
        )
    extra = row.get(OURS, {})
    if not isinstance(extra, dict):
        raise _row_error(path, index, OURS, "must be an object")
    if "persona" in row:
        persona = row["persona"]
        if not isinstance(persona, str) or not persona.strip():
            raise _row_error(path, index, "persona", "must be a non-empty string")
        extra = {USER_PERSONA: persona.strip()} | extra
    for key in ("org", HASH_KEY):
        if key in extra and not isinstance(extra[key], str):
            raise _row_error(path, index, f"{OURS}.{key}", "must be a string")
    return Instance(
        idx,
        task,
        query,
        answer,
        metadata["required"],
        metadata["optional"],
        family.metric,
        dict(extra),
        answer_list,
    )


def gold_fields(gold: Any) -> tuple[str | None, list[str | None] | None]:
    """An instance's `answer` and `answer_list` from a stored gold: a list (CRMArena-Pro's
    form) is kept as `answer_list`, its items joined with ", " as `answer`."""
    if not isinstance(gold, list):
        return gold, None
    answer = None if gold == [None] else ", ".join(a or "None" for a in gold)
    return answer, list(gold)


def _answer_list(answer: list[Any], path: Path, index: int) -> list[str | None]:
    """CRMArena-Pro's list answer: non-empty, of non-blank strings, or `[null]` alone."""
    if answer == [None]:
        return [None]
    if not answer or not all(isinstance(a, str) and a.strip() for a in answer):
        raise _row_error(
            path, index, "answer", "a list answer must hold non-blank strings, or be [null]"
        )
    return [a.strip() for a in answer]


def _parse_rows(text: str, path: Path) -> list[Any]:
    """A JSON array, or JSON Lines (one object per non-blank line)."""
    if text.lstrip().startswith("["):
        try:
            array: list[Any] = loads(text, f"{path}: not a task set")
            return array
        except json.JSONDecodeError as exc:
            raise CrmTuiError(
                f"{path}: not valid JSON (line {exc.lineno}: {exc.msg}); nothing was imported"
            ) from None
    rows = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                rows.append(loads(line, f"{path}: line {lineno}"))
            except json.JSONDecodeError as exc:
                raise CrmTuiError(
                    f"{path}: line {lineno} is not valid JSON ({exc.msg}); nothing was imported"
                ) from None
    return rows


def load_taskset(path: str | Path) -> TaskSet:
    """Read and validate a task set (ours, CRMArena's paper-era file or its HF form)."""
    path = Path(path)
    try:
        text = read_input(path, "a task set").decode("utf-8")
    except UnicodeDecodeError:
        raise CrmTuiError(
            f"{path}: not a task set (not UTF-8 text); nothing was imported"
        ) from None
    rows = _parse_rows(text, path)
    if not rows:
        raise CrmTuiError(f"{path}: no task instances in the file")
    instances = [validate_row(row, i, path) for i, row in enumerate(rows)]
    seen: dict[int, int] = {}
    for i, inst in enumerate(instances):
        if inst.idx in seen:
            raise _row_error(path, i, "idx", f"{inst.idx} repeats row {seen[inst.idx]}")
        seen[inst.idx] = i
    fingerprints = {inst.extra.get("org", CRMARENA) for inst in instances}
    if len(fingerprints) > 1:
        raise CrmTuiError(
            f"{path}: rows come from different orgs ({', '.join(sorted(fingerprints))})"
        )
    taskset = TaskSet(instances, fingerprints.pop(), path)
    stored = {inst.extra.get(HASH_KEY) for inst in instances} - {None}
    if stored and stored != {taskset.content_hash}:
        raise CrmTuiError(
            f"{path}: the rows do not match the task set's recorded content hash "
            "(the file was edited); regenerate or re-import it"
        )
    return taskset


def imported(taskset: TaskSet) -> TaskSet:
    """A sealed copy with persona and answer type; CRMArena's rows get the org "crmarena"."""
    instances = [
        Instance(
            inst.idx,
            inst.task,
            inst.query,
            inst.answer,
            inst.required,
            inst.optional,
            inst.reward_metric,
            {"persona": inst.persona, "answer_type": inst.answer_type} | inst.extra,
            inst.answer_list,
        )
        for inst in sorted(taskset.instances, key=lambda i: i.idx)
    ]
    sealed_set = sealed(instances, taskset.fingerprint or CRMARENA)
    sealed_set.source = taskset.source
    return sealed_set


# ----------------------------------------------------------------- writing
def sealed(instances: Iterable[Instance], fingerprint: str) -> TaskSet:
    """A task set whose rows carry the org fingerprint and the set's content hash."""
    rows = list(instances)
    for inst in rows:
        inst.extra["org"] = fingerprint
        inst.extra.pop(HASH_KEY, None)
    taskset = TaskSet(rows, fingerprint)
    digest = taskset.content_hash
    for inst in rows:
        inst.extra[HASH_KEY] = digest
    return taskset


def write_taskset(taskset: TaskSet, path: str | Path) -> None:
    """Write a JSON array (or JSONL for a `.jsonl` path), atomically; private (0600), as
    it holds the gold answers."""
    path = Path(path)
    rows = [
        json.dumps(inst.to_row(), ensure_ascii=False)
        for inst in sorted(taskset.instances, key=lambda i: i.idx)
    ]
    text = "\n".join(rows) + "\n" if path.suffix == ".jsonl" else "[\n" + ",\n".join(rows) + "\n]\n"
    write_text_atomically(path, text, private=True)


# ----------------------------------------------------------------- pinning
def check_taskset_matches(taskset: TaskSet, store: OrgStore) -> None:
    """Refuse (CrmTuiError) a task set that was not generated from this org."""
    if taskset.fingerprint in (None, CRMARENA):
        raise CrmTuiError(
            f"{taskset.name} is CRMArena's own task set: its Ids point into CRMArena's "
            f"Salesforce org, not into {store.path}. Generate a task set for this org with "
            f"`crm-tui tasks generate --org {store.path} --out FILE`."
        )
    if taskset.fingerprint != store.fingerprint:
        raise CrmTuiError(
            f"{taskset.name} was generated from org {taskset.fingerprint}, but {store.path} "
            f"is org {store.fingerprint}; its gold answers would be wrong here. Use the org it "
            f"was made from, or run `crm-tui tasks generate --org {store.path} --out FILE`."
        )

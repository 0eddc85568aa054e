"""The one scorer for human and agent answers (CRMArena's metrics, with the exact-match decisions the docs list).

No submission (`NO_SUBMISSION`, the answer None) is never an answer: an agent run that
crashed, ran out of turns or never made what CRMArena counts as a submission, a person
who skipped or ran out of time. It scores 0 whatever the gold, a None gold included, and
so fails pass^k. The None answer ("no record matches") is text: "None".
Exact match (every family but knowledge_qa), after stripping surrounding whitespace and
quotes (" ' ` and typographic quotes) from both sides:
- the None answer: "", "None" and "null" (any letter case) are all the same answer, and
  match a gold of None (null); they never match a gold string.
- month names ("March") and two-letter state codes ("GA") compare case-insensitively;
- record Ids compare exactly (Salesforce Ids are case-sensitive), except that a
  15-character Id equals its 18-character form (`ids.same_id`);
- anything else compares as an exact string.
knowledge_qa (fuzzy_match): CRMArena's SQuAD-style token F1 after its normalisation
(underscores to spaces, lower case, string.punctuation and ‘ ’ ´ ` to spaces, articles
a/an/the dropped, whitespace collapsed). Like CRMArena's, it leaves the double quotes “ ”
in the tokens; a None gold is the text "None".
"ALL" is the unweighted mean of the per-family scores; pass^k is the unbiased estimator
mean over tasks of C(c, k) / C(n, k) for n trials with c successes.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Iterable, Mapping
from math import comb
from typing import Final

from crm_tui.errors import CrmTuiError
from crm_tui.org.schema.ids import is_valid_id, same_id
from crm_tui.tasks.families import METRICS
from crm_tui.tasks.periods import MONTHS
from crm_tui.tasks.pro_families import all_families, pro_only_names
from crm_tui.tasks.taskset import Instance

NO_SUBMISSION: Final = None  # nothing was submitted: scores 0 whatever the gold
QUOTES = "\"'`\u2018\u2019\u201c\u201d\u00b4"
NO_ANSWER = {"", "none", "null"}
MONTH_NAMES = {m.casefold() for m in MONTHS}
STATE_RE = re.compile(r"^[A-Za-z]{2}$")
# CRMArena's normaliser (crm_sandbox/agents/utils.py): string.punctuation plus ‘ ’ ´ `
PUNCTUATION = set(string.punctuation) | set("\u2018\u2019\u00b4`")
ARTICLES_RE = re.compile(r"\b(a|an|the)\b")


def is_submission(answer: str | None) -> bool:
    """Whether something was submitted; the None answer ("None", "") is a submission."""
    return answer is not NO_SUBMISSION


def normalize_exact(answer: str | None) -> str | None:
    """The answer as compared by exact match; None for the None answer ("", "null", ...)."""
    if answer is None:
        return None
    text = str(answer).strip().strip(QUOTES).strip()
    return None if text.casefold() in NO_ANSWER else text


def exact_match(answer: str | None, gold: str | None) -> float:
    """1.0 or 0.0; `answer` None is no submission (0), `gold` None is the None answer."""
    if not is_submission(answer):
        return 0.0
    given, expected = normalize_exact(answer), normalize_exact(gold)
    if given is None or expected is None:
        return float(given is expected)
    if expected.casefold() in MONTH_NAMES or STATE_RE.match(expected):
        return float(given.casefold() == expected.casefold())
    if is_valid_id(expected) and is_valid_id(given):
        return float(same_id(given, expected))
    return float(given == expected)


def normalize_tokens(text: str) -> list[str]:
    """CRMArena's SQuAD-style normalisation, as tokens."""
    text = text.replace("_", " ").lower()
    text = "".join(" " if ch in PUNCTUATION else ch for ch in text)
    return ARTICLES_RE.sub(" ", text).split()


def token_f1(answer: str | None, gold: str | None) -> float:
    """Bag-of-tokens F1 between answer and gold, as CRMArena's `f1_score`; 0 for no
    submission, and when either side has no tokens or they share none."""
    if answer is None:  # NO_SUBMISSION
        return 0.0
    given, expected = normalize_tokens(answer), normalize_tokens("None" if gold is None else gold)
    overlap = sum((Counter(given) & Counter(expected)).values())
    if overlap == 0:
        return 0.0
    precision, recall = overlap / len(given), overlap / len(expected)
    return 2 * precision * recall / (precision + recall)


# An answer counts as right from this score: exact-match families score 1 or 0, and a
# knowledge-QA answer (token F1) is right from 0.5. The one rule for training feedback,
# the process view's "right" and the audit's "wrong".
RIGHT_FROM = 0.5


def is_right(points: float) -> bool:
    """Whether an answer scoring `points` counts as right."""
    return points >= RIGHT_FROM


def metric_of(task_or_metric: str | Instance) -> str:
    if isinstance(task_or_metric, Instance):
        return task_or_metric.reward_metric
    if task_or_metric in METRICS:
        return task_or_metric
    if task_or_metric in all_families():
        return all_families()[task_or_metric].metric
    raise CrmTuiError(f"Unknown task or metric {task_or_metric!r}")


def score(
    task_or_metric: str | Instance, answer: str | None, gold: str | list[str | None] | None
) -> float:
    """1.0/0.0 for exact match, token F1 in [0, 1] for fuzzy match (knowledge_qa).

    `task_or_metric` is a task name, a metric name or an Instance; `answer` None is
    `NO_SUBMISSION` and scores 0 whatever the gold, while `gold` None is the None answer.
    A list gold (CRMArena-Pro's form; `task_or_metric` then names the task) is scored by
    Pro's rules; so is a text gold of a family CRMArena-Pro adds (another answer, when two
    people's answers are compared), read for its values as an answer is."""
    task = task_or_metric if isinstance(task_or_metric, str) else task_or_metric.task
    if isinstance(gold, list) or task in pro_only_names():
        from crm_tui.tasks.pro_scoring import as_gold_list, score_list  # they build on this

        return score_list(
            task, answer, gold if isinstance(gold, list) else as_gold_list(task, gold)
        )
    if metric_of(task_or_metric) == "fuzzy_match":
        return token_f1(answer, gold)
    return exact_match(answer, gold)


def gold_text(gold: str | list[str | None] | None) -> str:
    """A gold as people read it: a list's items joined with ", ", "None" for None and for
    CRMArena-Pro's `[null]`."""
    if isinstance(gold, list):
        gold = ", ".join(item for item in gold if item is not None) or None
    return "None" if gold is None else str(gold)


def all_score(per_family: Mapping[str, float]) -> float:
    """The paper's "ALL": unweighted mean of the per-family scores."""
    if not per_family:
        raise CrmTuiError("No family scores to average")
    return sum(per_family.values()) / len(per_family)


def pass_hat_k(trials: Iterable[tuple[int, int]], k: int) -> float:
    """Mean over tasks of C(c, k) / C(n, k): the chance that k attempts all succeed.

    `trials` holds (n attempts, c successes) per task; every task needs n >= k.
    """
    trials = list(trials)
    if not trials:
        raise CrmTuiError("pass^k needs at least one task")
    # tasks share a few (n, c) pairs: each pair's ratio is worked out once, then summed
    # in the tasks' order (the same sum as term by term)
    ratios = {}
    for n, c in dict.fromkeys(trials):
        if not 0 <= c <= n or k < 1 or n < k:
            raise CrmTuiError(f"pass^{k} needs 1 <= k <= n and 0 <= c <= n, got n={n}, c={c}")
        ratios[n, c] = comb(c, k) / comb(n, k)
    return sum([ratios[pair] for pair in trials]) / len(trials)

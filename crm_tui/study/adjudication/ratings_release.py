"""A realism study's ratings and their agreement, ready to release (`tasks/release.py`):
one row per rating, people named R1, R2, ... in the order they first rated (their job
title and years of CRM experience stay, their names never leave the file)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, col, select

from crm_tui.study.results.summary import build_report
from crm_tui.study.store.models import Annotator, RealismRating, Study
from crm_tui.tasks.release import card_header

RATING_FEATURES: list[tuple[str, str | list[str]]] = [
    ("rater", "string"),
    ("rater_role", "string"),
    ("rater_crm_years", "float64"),
    ("target", "string"),
    ("level", "int64"),
    ("rationale", "string"),
    ("record_ids", "string"),
]


@dataclass(frozen=True)
class RatingsRelease:
    study: str
    org_fingerprint: str
    rows: list[dict[str, Any]]
    agreement: dict[str, Any]  # Krippendorff's alpha (ordinal) and per-target counts
    level_labels: dict[int, str]

    def card(self, license_id: str) -> str:
        alpha = self.agreement.get("alpha")
        agreement = (
            "Too few targets were rated by two people to measure agreement."
            if alpha is None
            else f"Krippendorff's alpha (ordinal, targets as units): {alpha:.3f} over "
            f"{self.agreement['units']} targets"
            + (
                f", 95% interval {self.agreement['low']:.3f} to {self.agreement['high']:.3f}."
                if self.agreement.get("low") is not None
                else "."
            )
        )
        scale = "\n".join(f"| {level} | {label} |" for level, label in self.level_labels.items())
        targets = "\n".join(
            f"| {t['target']} | {t['ratings']} | {t['dont_know']} | "
            + ("—" if t["realistic_share"] is None else f"{100 * t['realistic_share']:.0f}%")
            + " |"
            for t in self.agreement["targets"]
        )
        return (
            card_header(
                license_id=license_id,
                pretty_name=f"Realism ratings of study {self.study}",
                rows=len(self.rows),
                task_categories=["tabular-classification"],
                tags=["crm", "realism", "human-ratings"],
                features=RATING_FEATURES,
            )
            + f"\n# Realism ratings: {self.study}\n\n"
            + f"{len(self.rows):,} ratings of the org {self.org_fingerprint} and its objects "
            + "by CRM professionals, on a 1-5 scale (0: the person does not know the object).\n\n"
            + f"## Agreement\n\n{agreement}\n\n"
            + "| Target | Ratings | Don't know | Realistic or better |\n|---|---|---|---|\n"
            + targets
            + "\n\n## Scale\n\n| Level | Label |\n|---|---|\n"
            + scale
            + "\n\n## Files\n\n- `ratings.json`, `ratings.jsonl`: one rating each\n"
            + "- `agreement.json`: the agreement and the counts above\n"
            + "- `dataset/`: the Hugging Face dataset (`datasets.load_from_disk`), split `test`\n"
        )


def ratings_release(session: Session, study: Study) -> RatingsRelease:
    people = dict(session.exec(select(Annotator.id, Annotator)).all())
    ratings = list(
        session.exec(
            select(RealismRating)
            .where(RealismRating.study_id == study.id)
            .order_by(col(RealismRating.rated_at), col(RealismRating.id))
        )
    )
    pseudonyms: dict[int, str] = {}
    rows = []
    for rating in ratings:
        rater = pseudonyms.setdefault(rating.annotator_id, f"R{len(pseudonyms) + 1}")
        person = people[rating.annotator_id]
        rows.append(
            {
                "rater": rater,
                "rater_role": person.role,
                "rater_crm_years": float(person.crm_years),
                "target": rating.target,
                "level": rating.level,
                "rationale": rating.rationale,
                "record_ids": rating.record_ids_json,
            }
        )
    realism = build_report(session, study).realism
    alpha = realism.alpha
    agreement: dict[str, Any] = {
        "alpha": None if alpha is None else alpha.alpha,
        "units": None if alpha is None else alpha.units,
        "low": None if alpha is None or alpha.interval is None else alpha.interval.low,
        "high": None if alpha is None or alpha.interval is None else alpha.interval.high,
        "raters": realism.annotators,
        "targets": [
            {
                "target": t.target,
                "ratings": sum(t.counts.values()),
                "counts": {str(k): v for k, v in t.counts.items()},
                "dont_know": t.dont_know,
                "realistic_share": t.realistic_share,
            }
            for t in realism.targets
        ],
    }
    return RatingsRelease(
        study.name,
        study.org_fingerprint,
        rows,
        json.loads(json.dumps(agreement)),
        realism.level_labels,
    )

"""Quality control of a study: consent, the qualification gate, hidden check items,
behaviour flags, exclusions, post-study questions and completion codes, on SQLite and
PostgreSQL stores, through the service as the app and the CLI call it."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from crm_tui.errors import CrmTuiError
from crm_tui.study.quality_calls import QUALITY_IS_FOR_COORDINATORS
from crm_tui.study.service import StudyService
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Event, QualityRecord
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.protocol import Preset, load_preset, resolve_protocol, validated
from crm_tui.study.work.quality import PRACTICE_BASE, Stage
from crm_tui.study.work.studies import check_study, create_study

ORG = "local-0000"


def gold(idx: int) -> str:
    return f"005Wt00000000{idx:02}AAA"


def rows(count: int = 40) -> list[dict[str, Any]]:
    return [
        {
            "idx": idx,
            "task": "case_routing" if idx % 2 else "handle_time",
            "query": f"Who should take case {idx}?",
            "answer": gold(idx),
            "metadata": {"required": "- Today's date: 2023-01-15"},
            "reward_metric": "exact_match",
            "crm_tui": {"org": ORG},
        }
        for idx in range(count)
    ]


def preset_data(consent_path: Path, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "kind": "study-preset",
        "name": "controlled",
        "seed": 7,
        "consent": {"file": str(consent_path)},
        "guidelines": {"NCR": str(consent_path.parent / "routing.md")},
        "qualification": {"items": 3, "pass_correct": 2, "tries": 1},
        "checks": {"share": 0.25, "min_answered": 1, "stop_below": 0.5, "warn_below": 0.9},
        "behaviour": {"fast_floor_s": {"HTU": 30, "case_routing": 30}},
        "post_study": {"questions": [{"key": "comments", "prompt": "Anything else?"}]},
        "completion_code": {"prefix": "CRM"},
        "parts": [
            {"kind": "solve", "title": "Solve", "items": 8},
            {"kind": "rate", "title": "Rate", "objects": ["Case", "Contact", "Account"]},
        ],
    }
    for key, value in changes.items():
        if isinstance(value, dict) and isinstance(data.get(key), dict):
            data[key] = data[key] | value
        else:
            data[key] = value
    return data


@pytest.fixture
def texts(tmp_path: Path) -> Path:
    (tmp_path / "consent.md").write_text("# Consent\n\nYou agree to take part.\n")
    (tmp_path / "routing.md").write_text("# Routing\n\nAnswer with a User Id.\n")
    return tmp_path / "consent.md"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def study(study_store_url, texts, clock):
    preset = validated(Preset, preset_data(texts), "test preset")
    with StudyStore.open(study_store_url, clock) as store:
        create_study(
            store,
            "controlled",
            preset,
            instances=rows(),
            task_set_hash="sha256:test",
            org_fingerprint=ORG,
        )
        create_profile(store, "Ana", "Customer Service Agent", 3)
        create_profile(store, "Ben", "Customer Service Agent", 5)
        create_profile(store, "Abe", "Study lead", 12, mode="coordinator")
    return study_store_url


def ids(service: StudyService) -> dict[str, int]:
    return {p.name: p.id for p in service.profiles()}


def solve_one(service: StudyService, who: int, right: bool, clock: FakeClock, seconds=60):
    view = service.open_next(who)
    assert view is not None
    clock.advance(seconds=seconds)
    answer = gold(view.item.idx) if right else "005Wt0000000099ZZZ"
    return view, service.submit_answer(view.attempt_id, answer)


def qualify(service: StudyService, who: int, clock: FakeClock) -> None:
    service.give_consent(who, True)
    for _ in range(3):
        solve_one(service, who, True, clock)
    assert service.standing(who).stage == Stage.SOLVE


# ----------------------------------------------------------------- bad presets
@pytest.mark.parametrize(
    ("changes", "key"),
    [
        ({"checks": {"share": 0.6}}, "checks.share"),
        ({"qualification": {"items": 3, "pass_correct": 4}}, "qualification.pass_correct"),
    ],
)
def test_a_bad_value_names_its_key(texts, changes, key):
    with pytest.raises(CrmTuiError, match=rf"^test preset: {key}: ") as caught:
        validated(Preset, preset_data(texts, **changes), "test preset")
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("changes", "key"),
    [
        ({"qualification": {"pool": [1, 3, 5]}, "measured_items": [5, 7]}, "qualification.pool"),
        ({"qualification": {"pool": [1, 3, 5]}, "checks": {"pool": [5]}}, "qualification.pool"),
        ({"consent": {"file": "no-such-consent.md"}}, "consent.file"),
        ({"guidelines": {"XYZ": "routing.md"}}, "guidelines.XYZ"),
        ({"qualification": {"pool": [1, 3, 999]}}, "qualification.pool"),
    ],
)
def test_rules_across_keys_name_the_key_in_one_line(texts, changes, key):
    preset = validated(Preset, preset_data(texts, **changes), "test preset")
    with pytest.raises(CrmTuiError, match=rf": {key}: ") as caught:
        check_study(
            "s", preset, instances=rows(), org_fingerprint=ORG, preset_path=texts.parent / "p.toml"
        )
    assert "\n" not in str(caught.value)


def test_the_bundled_preset_loads_and_the_papers_is_unchanged():
    preset, path = load_preset("human-baseline")
    plan = resolve_protocol(preset, path).quality
    assert plan is not None and plan.consent_text and plan.qualification and plan.checks
    paper, paper_path = load_preset("paper-expert-study")
    assert resolve_protocol(paper, paper_path).quality is None


# ----------------------------------------------------------------- consent
def test_declining_ends_the_session_and_keeps_only_the_decline(study, clock):
    with StudyService.open(study, clock=clock) as service:
        ana = ids(service)["Ana"]
        first = service.standing(ana)
        assert first.stage == Stage.CONSENT and "take part" in (first.consent_text or "")
        assert service.open_next(ana) is None
        assert service.give_consent(ana, False).stage == Stage.DECLINED
        assert service.open_next(ana) is None
        with pytest.raises(CrmTuiError, match="declined"):
            service.rate_realism(ana, "org", 3)
    with StudyStore.open(study) as store, store.transaction() as session:
        records = list(session.exec(select(QualityRecord)))
        events = list(session.exec(select(Event)))
    assert [(r.kind, json.loads(r.value or "{}")) for r in records] == [
        ("consent", {"decision": "decline"})
    ]
    assert events == []


def test_agreeing_keeps_the_texts_hash_and_time_whatever_the_file_becomes(study, texts, clock):
    texts.write_text("A different text, changed after the study was made.\n")
    with StudyService.open(study, clock=clock) as service:
        ana = ids(service)["Ana"]
        assert "You agree" in (service.standing(ana).consent_text or "")
        service.give_consent(ana, True)
        with pytest.raises(CrmTuiError, match="already"):
            service.give_consent(ana, False)
        person = next(p for p in service.quality_overview().people if p.name == "Ana")
    assert person.consent == "agreed" and person.consent_at is not None
    assert person.consent_sha256 == service.study.protocol.quality.consent_sha256
    assert person.consent_sha256.startswith("sha256:")


# ----------------------------------------------------------------- the qualification gate
def test_failing_the_gate_stops_the_person_until_a_retry_and_passing_opens_the_queue(study, clock):
    with StudyService.open(study, clock=clock) as service:
        ana = ids(service)["Ana"]
        service.give_consent(ana, True)
        practice = service.study.protocol.quality.practice_idx
        seen = []
        for right in (True, False, False):
            view, result = solve_one(service, ana, right, clock)
            seen.append(view.item.idx)
            assert view.item.idx in practice
            assert result.correct is right  # feedback after each practice item
        assert service.standing(ana).stage == Stage.FAILED
        assert service.open_next(ana) is None
        person = next(p for p in service.quality_overview().people if p.name == "Ana")
        assert person.qualification == "failed" and person.practice_right == [1]
        with pytest.raises(CrmTuiError, match="not failed"):
            service.allow_retry("Ben")
        assert service.allow_retry("Ana") == 2
        assert service.standing(ana).stage == Stage.PRACTICE
        for _ in range(3):
            view, result = solve_one(service, ana, True, clock)
            assert view.item.idx in practice and view.item.idx not in seen
        assert service.standing(ana).stage == Stage.SOLVE
        view = service.open_next(ana)
        assert view is not None and view.item.idx not in practice
        assert (view.practice, view.position, view.queue_length) == (False, 1, 8)
        _, result = view, service.submit_answer(view.attempt_id, gold(view.item.idx))
        assert result.correct is None  # no feedback on measured (or check) items
        person = next(p for p in service.quality_overview().people if p.name == "Ana")
    assert person.qualification == "passed" and person.practice_right == [1, 3]


# ----------------------------------------------------------------- hidden check items
def test_check_items_are_spaced_alike_and_never_in_the_baseline(study, clock):
    with StudyService.open(study, clock=clock) as service:
        ben = ids(service)["Ben"]
        qualify(service, ben, clock)
        plan = service.study.protocol.quality
        views = []
        while (view := service.open_next(ben)) is not None:
            views.append(view)
            clock.advance(seconds=40)
            service.submit_answer(view.attempt_id, gold(view.item.idx))
        checks = [v for v in views if v.item.idx in plan.check_idx]
        assert len(views) == 8 and len(checks) == plan.checks_per_person == 2
        assert views[0].item.idx not in plan.check_idx
        # The same fields, the same kind of content: nothing tells a check item apart.
        for view in checks:
            other = next(v for v in views if v.item.task == view.item.task and v not in checks)
            assert {f.name for f in dataclasses.fields(view.item)} == {
                f.name for f in dataclasses.fields(other.item)
            }
            assert (view.item.persona, view.item.answer_type) == (
                other.item.persona,
                other.item.answer_type,
            )
        report = service.report()
    with StudyStore.open(study) as store, store.transaction() as session:
        kinds: dict[int, list[str]] = {}
        for event in session.exec(select(Event)):
            kinds.setdefault(event.attempt_id or 0, []).append(event.kind)
    check_ids = {v.attempt_id for v in checks}
    assert {tuple(kinds[a]) for a in check_ids} == {
        tuple(kinds[v.attempt_id]) for v in views if v.attempt_id not in check_ids
    }
    answered = sum(f.humans.answers for f in report.families if f.family != "ALL")
    assert answered == 6  # 8 solved, 2 of them check items; practice never counts
    ben_q = next(p for p in report.quality.people if p.name == "Ben")
    assert ben_q.check_answers == 2 and ben_q.check_accuracy == 1.0


def test_a_low_check_accuracy_stops_the_person(study, clock):
    with StudyService.open(study, clock=clock) as service:
        ben = ids(service)["Ben"]
        qualify(service, ben, clock)
        plan = service.study.protocol.quality
        stopped_after = None
        for n in range(8):
            view = service.open_next(ben)
            if view is None:
                stopped_after = n
                break
            clock.advance(seconds=40)
            is_check = view.item.idx in plan.check_idx
            service.submit_answer(view.attempt_id, "wrong" if is_check else gold(view.item.idx))
        assert stopped_after is not None and stopped_after < 8
        assert service.standing(ben).stage == Stage.STOPPED
        with pytest.raises(CrmTuiError, match="ended"):
            service.rate_realism(ben, "org", 3)
        person = next(p for p in service.quality_overview().people if p.name == "Ben")
    assert person.check_verdict == "stop" and person.check_accuracy == 0.0


# ----------------------------------------------------------------- flags and exclusions
def test_behaviour_flags_come_from_the_recorded_events(study, clock):
    with StudyService.open(study, clock=clock) as service:
        ana = ids(service)["Ana"]
        qualify(service, ana, clock)
        for target in ("org", "Case", "Contact", "Account"):
            service.rate_realism(ana, target, 5)
        view = service.open_next(ana)
        assert view is not None
        clock.advance(seconds=400)  # idle inside the attempt
        service.record_event(view.attempt_id, "record_viewed", {"id": "500"})
        service.submit_answer(view.attempt_id, "same answer")
        view = service.open_next(ana)
        clock.advance(seconds=2)  # fast (a floor of 30 s on HTU; else the 5th percentile)
        service.submit_answer(view.attempt_id, "same answer")  # identical to the previous
        person = next(p for p in service.quality_overview().people if p.name == "Ana")
    assert person.idle_spans == 1 and person.repeated_answers == 1
    assert person.fast_answers >= 1 and person.straight_lining
    assert set(person.flags) == {"fast", "repeated", "idle", "straight-lining"}


def test_exclusions_keep_everything_and_figures_show_with_and_without(study, clock):
    from crm_tui.study.results.summary import ReportOptions

    with StudyService.open(study, clock=clock) as service:
        who = ids(service)
        for name, right in (("Ana", False), ("Ben", True)):
            qualify(service, who[name], clock)
            for _ in range(3):
                view = service.open_next(who[name])
                clock.advance(seconds=50)
                check = view.item.idx in service.study.protocol.quality.check_idx
                service.submit_answer(
                    view.attempt_id, gold(view.item.idx) if right or check else "x"
                )
        with pytest.raises(CrmTuiError, match="reason"):
            service.exclude("Ana", " ")
        service.exclude("Ana", "answered at random")
        quality = service.quality_overview()
        without = service.report()
        kept = service.report(ReportOptions(with_excluded=True))
    ana = next(p for p in quality.people if p.name == "Ana")
    assert ana.excluded == "answered at random" and quality.excluded_people == 1
    assert quality.accuracy_without_excluded > quality.accuracy_with_excluded
    all_without = next(f for f in without.families if f.family == "ALL").humans.answers
    all_with = next(f for f in kept.families if f.family == "ALL").humans.answers
    assert all_with > all_without > 0
    with StudyService.open(study, clock=clock) as service:
        service.exclude("Ana", "checked again: fine", lift=True)
        assert service.quality_overview().excluded_people == 0


# ----------------------------------------------------------------- one baseline everywhere
WRONG_ID = "005Wt0000000099ZZZ"


@pytest.fixture
def answered(study_store_url, texts, clock):
    """Ana and Ben pass the gate with the same wrong practice answer, then answer their
    whole queue (check items right; Ana some measured ones wrong, Ben all right). Ben is
    excluded, and so is one of Ana's wrong answers; a coordinator kept one query, so the
    study has an audited version."""
    preset = validated(Preset, preset_data(texts, qualification={"pool": [0, 1, 2]}), "preset")
    with StudyStore.open(study_store_url, clock) as store:
        create_study(
            store,
            "baseline",
            preset,
            instances=rows(),
            task_set_hash="sha256:t",
            org_fingerprint=ORG,
        )
        for name in ("Ana", "Ben"):
            create_profile(store, name, "Customer Service Agent", 3)
        create_profile(store, "Abe", "Study lead", 12, mode="coordinator")
    with StudyService.open(study_store_url, clock=clock) as service:
        who = ids(service)
        checks = set(service.study.protocol.quality.check_idx)
        wrong_of_ana: list[int] = []
        for name in ("Ana", "Ben"):
            service.give_consent(who[name], True)
            for _ in range(3):  # practice: query 0 wrong, the same wrong answer, 2 of 3 right
                view = service.open_next(who[name])
                clock.advance(seconds=60)
                idx = view.item.idx
                service.submit_answer(view.attempt_id, WRONG_ID if idx == 0 else gold(idx))
            assert service.standing(who[name]).stage == Stage.SOLVE
            while (view := service.open_next(who[name])) is not None:
                clock.advance(seconds=50)
                idx = view.item.idx
                right = name == "Ben" or idx in checks or idx % 3 != 0
                service.submit_answer(view.attempt_id, gold(idx) if right else WRONG_ID)
                if not right:
                    wrong_of_ana.append(view.attempt_id)
        assert len(wrong_of_ana) >= 2  # the figures below have something to tell apart
        service.exclude("Ben", "answered too fast")
        service.exclude("Ana", "a mistyped answer", attempt_id=wrong_of_ana[0])
        service.decide(who["Abe"], 3, "keep", "other")
        service.make_version(who["Abe"])
    return study_store_url


def test_the_gold_comparison_counts_the_reports_baseline(answered, clock):
    from crm_tui.study.results.summary import ReportOptions

    with StudyService.open(answered, clock=clock) as service:
        for with_excluded in (False, True):
            report = service.report(ReportOptions(with_excluded=with_excluded))
            assert report.gold is not None
            families = {f.family: f for f in report.families}
            assert {r.family for r in report.gold.rows} == set(families)
            for row in report.gold.rows:  # "keep" changed no gold: both sides alike
                expected = families[row.family].humans.accuracy
                assert row.humans == (pytest.approx(expected), pytest.approx(expected)), row
                assert row.items == families[row.family].items
            assert service.gold_comparison(with_excluded=with_excluded) == report.gold
        assert report.gold.with_excluded and not service.report().gold.with_excluded
        quality = service.quality_overview()
        counted = next(f for f in service.report().families if f.family == "ALL")
        assert quality.answers_without_excluded == counted.humans.answers


def test_the_overview_counts_a_late_answer_as_the_report_does(study_store_url, texts, clock):
    """A right answer past the time limit is kept but expired: 0 in every figure."""
    preset = validated(Preset, preset_data(texts, time_limit_minutes=1), "preset")
    with StudyStore.open(study_store_url, clock) as store:
        create_study(
            store, "late", preset, instances=rows(), task_set_hash="sha256:t", org_fingerprint=ORG
        )
        create_profile(store, "Ana", "Customer Service Agent", 3)
    with StudyService.open(study_store_url, clock=clock) as service:
        ana = ids(service)["Ana"]
        service.give_consent(ana, True)
        checks = set(service.study.protocol.quality.check_idx)
        late = False
        while (view := service.open_next(ana)) is not None:
            idx = view.item.idx
            measured = not view.practice and idx not in checks
            clock.advance(seconds=90 if measured and not late else 30)
            done = service.submit_answer(view.attempt_id, gold(idx))
            late = late or done.status == "expired"
        quality = service.quality_overview()
        counted = next(f for f in service.report().families if f.family == "ALL").humans
    assert late and counted.answers == quality.answers_without_excluded
    right = counted.answers - 1
    assert quality.accuracy_without_excluded == pytest.approx(right / counted.answers)
    assert quality.accuracy_with_excluded == pytest.approx(right / counted.answers)


def test_the_queue_counts_no_practice_answer_as_evidence(answered, clock):
    with StudyService.open(answered, clock=clock) as service:
        abe = ids(service)["Abe"]
        queue = {q.idx: q for q in service.adjudication_queue(abe)}
    # Ana and Ben gave query 0 the same wrong answer, in practice: no evidence on its gold
    assert 0 not in queue


# ----------------------------------------------------------------- the end of a study
def test_post_study_questions_then_a_completion_code_exported_by_the_coordinator(study, clock):
    with StudyService.open(study, clock=clock) as service:
        ben = ids(service)["Ben"]
        qualify(service, ben, clock)
        while (view := service.open_next(ben)) is not None:
            service.submit_answer(view.attempt_id, gold(view.item.idx))
        assert service.standing(ben).stage == Stage.SOLVE  # the rate part is still to do
        for target in service.study.rating_targets:
            service.rate_realism(ben, target, 4)
        assert service.standing(ben).stage == Stage.POST_STUDY
        questions = service.post_study_questions(ben)
        keys = [key for key, _, _ in questions]
        assert keys[-1] == "comments" and any(k.startswith("difficulty:") for k in keys)
        with pytest.raises(CrmTuiError, match="1 to 5"):
            service.answer_post_study(ben, {keys[0]: "9"})
        done = service.answer_post_study(
            ben, {k: "3" for k in keys[:-1]} | {"comments": "The routing ones were long."}
        )
        assert done.stage == Stage.DONE and done.completion_code.startswith("CRM-")
        assert service.standing(ben).completion_code == done.completion_code  # made once
        assert service.completion_codes() == [("Ben", done.completion_code)]
        person = next(p for p in service.report().quality.people if p.name == "Ben")
    assert person.post_study["comments"] == "The routing ones were long."


# ----------------------------------------------------------------- roles
def test_only_coordinators_see_quality_and_annotators_get_no_gold(study, clock):
    with StudyService.open(study, clock=clock, person_session=True) as service:
        ana = next(p for p in service.pickable_profiles() if p.name == "Ana").id
        standing = service.standing(ana)
        assert standing.stage == Stage.CONSENT
        for call in (
            lambda: service.quality_overview(ana),
            lambda: service.allow_retry("Ana", profile_id=ana),
            lambda: service.exclude("Ben", "spite", profile_id=ana),
            lambda: service.completion_codes(ana),
            lambda: service.quality_overview(),
        ):
            with pytest.raises(CrmTuiError, match="coordinators"):
                call()
        service.give_consent(ana, True)
        view = service.open_next(ana)
        text = json.dumps(dataclasses.asdict(view)) + json.dumps(
            dataclasses.asdict(service.standing(ana))
        )
    assert gold(view.item.idx) not in text and "check" not in text
    assert QUALITY_IS_FOR_COORDINATORS.startswith("Quality control")


def test_practice_sits_before_the_queue(study, clock):
    with StudyService.open(study, clock=clock) as service:
        ana = ids(service)["Ana"]
        service.give_consent(ana, True)
        view = service.open_next(ana)
    with StudyStore.open(study) as store, store.transaction() as session:
        from crm_tui.study.store.models import Assignment

        positions = sorted(a.position for a in session.exec(select(Assignment)))
    assert positions[:3] == [PRACTICE_BASE, PRACTICE_BASE + 1, PRACTICE_BASE + 2]
    assert positions[3:] == list(range(8))
    # shown as "Practice query 1 of 3"; the measured queue (check items inside) counts apart
    assert view is not None and (view.practice, view.position, view.queue_length) == (True, 1, 3)

"""Invitation codes on a real study file: made, stored hashed, redeemed, expired, revoked,
counted and locked out; and the study service acting only for the profile a code opened."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlmodel import select

from crm_tui.errors import CrmTuiError
from crm_tui.study.service import StudyService
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import InvitationFailure
from crm_tui.study.work import invitations
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.invitations import (
    BAD_CODE,
    LOCKED_OUT,
    MAX_FAILURES,
    InvitationState,
    invite,
    list_invitations,
    parse_expiry,
    redeem,
    revoke,
)
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.studies import create_study, solve_only_preset

CODE_SHAPE = re.compile(r"^[2-9A-HJ-NP-Z]{4}(-[2-9A-HJ-NP-Z]{4}){3}$")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store(tmp_path, clock):
    with StudyStore.open(tmp_path / "study.sqlite", clock) as opened:
        yield opened


def refused(store, code: str, source: str = "terminal") -> str:
    with pytest.raises(CrmTuiError) as caught:
        redeem(store, code, source)
    return str(caught.value)


def test_a_code_is_typable_random_and_only_its_hash_is_kept(store):
    issued = [invite(store, f"Person {n}", "annotator") for n in range(5)]
    codes = [one.code for one in issued]
    assert all(CODE_SHAPE.match(code) for code in codes), codes
    assert len(set(codes)) == 5
    store.close()
    raw = b"".join(p.read_bytes() for p in store.path.parent.glob("study.sqlite*"))
    for code in codes:  # neither the code nor its secret part is anywhere in the file
        assert code.encode() not in raw
        assert code.replace("-", "")[4:].encode() not in raw


def test_the_code_opens_its_profile_with_the_role_it_was_given(store):
    code = invite(store, "Rae", "coordinator", job_role="Study lead", crm_years=9).code
    typed = code.lower().replace("-", " ")  # as a person may type it
    rae = redeem(store, typed, "terminal")
    assert (rae.name, rae.mode, rae.role, rae.crm_years) == ("Rae", "coordinator", "Study lead", 9)
    # used: it reopens the same profile (a closed browser tab comes back) until revoked
    assert redeem(store, code, "terminal").id == rae.id
    assert [(r.name, r.state) for r in list_invitations(store)] == [("Rae", InvitationState.USED)]


def test_wrong_expired_and_revoked_codes_get_one_message_and_are_counted(store, clock):
    late = invite(store, "Late", "annotator", expires_in=timedelta(hours=1)).code
    gone = invite(store, "Gone", "auditor").code
    revoke(store, "Gone")
    clock.advance(seconds=3601)
    wrong = "2345-6789-ABCD-EFGH"
    messages = {refused(store, code, f"s{n}") for n, code in enumerate((wrong, late, gone))}
    assert messages == {BAD_CODE}
    assert refused(store, "not a code", "s4") == BAD_CODE
    states = {r.name: r.state for r in list_invitations(store)}
    assert states == {"Late": InvitationState.EXPIRED, "Gone": InvitationState.REVOKED}
    with store.transaction() as session:
        reasons = [f.reason for f in session.exec(select(InvitationFailure))]
    assert reasons == ["wrong", "expired", "revoked", "wrong"]


def test_a_used_code_that_expires_still_reopens_its_profile(store, clock):
    code = invite(store, "Ana", "annotator", expires_in=timedelta(hours=1)).code
    ana = redeem(store, code, "terminal")
    clock.advance(seconds=7200)
    assert redeem(store, code, "terminal").id == ana.id
    revoke(store, "Ana")
    assert refused(store, code) == BAD_CODE


def test_repeated_failures_lock_the_source_out_even_for_the_right_code(store, clock):
    code = invite(store, "Ana", "annotator").code
    for _ in range(MAX_FAILURES):
        assert refused(store, "2345-6789-ABCD-EFGH", "browser-1") == BAD_CODE
    assert refused(store, code, "browser-1") == LOCKED_OUT
    assert redeem(store, code, "browser-2").name == "Ana"  # another source is not locked
    clock.advance(seconds=16 * 60)  # the window has passed
    assert redeem(store, code, "browser-1").name == "Ana"


def test_invite_and_revoke_refuse_bad_input(store):
    invite(store, "Ana", "annotator")
    with pytest.raises(CrmTuiError, match="has a code that still works; revoke it first"):
        invite(store, "Ana", "annotator")
    with pytest.raises(CrmTuiError, match="is a annotator, not a coordinator"):
        invite(store, "Ana", "coordinator")
    with pytest.raises(CrmTuiError, match="profile mode: 'boss' is not one of"):
        invite(store, "Bo", "boss")
    with pytest.raises(CrmTuiError, match="--study: no study named 'nope'"):
        invite(store, "Bo", "annotator", study_name="nope")
    with pytest.raises(CrmTuiError, match="no profile named 'Nobody'"):
        revoke(store, "Nobody")
    revoke(store, "Ana")
    with pytest.raises(CrmTuiError, match="has no code that still works"):
        revoke(store, "Ana")
    again = invite(store, "Ana", "annotator")  # a new code after a revoke
    assert redeem(store, again.code, "terminal").name == "Ana"
    assert "Bo" not in {r.name for r in list_invitations(store)}  # refused: nothing made


@pytest.mark.parametrize(
    ("text", "expected"),
    [("14d", timedelta(days=14)), ("36h", timedelta(hours=36)), ("2w", timedelta(weeks=2))],
)
def test_expiry_durations(text, expected):
    assert parse_expiry(text) == expected


@pytest.mark.parametrize("text", ["", "0d", "7", "7y", "-1d"])
def test_bad_expiry_names_the_option(text):
    with pytest.raises(CrmTuiError, match="--expires"):
        parse_expiry(text)


@pytest.fixture
def study_file(tmp_path, clock):
    path = tmp_path / "service.sqlite"
    with StudyStore.open(path, clock) as store:
        create_study(
            store,
            "s",
            solve_only_preset(1),
            instances=[
                {
                    "idx": 1,
                    "task": "handle_time",
                    "query": "Which agent?",
                    "answer": "005Ws000001xZvdIAE",
                    "reward_metric": "exact_match",
                    "metadata": {"required": "", "optional": ""},
                }
            ],
            task_set_hash="sha256:x",
            org_fingerprint="local-x",
        )
        create_profile(store, "Dana", "Agent", 3)
        create_profile(store, "Boss", "Lead", 9, mode="coordinator")
    return path


def test_a_person_session_acts_only_for_the_profile_its_code_opened(study_file, clock):
    with StudyStore.open(study_file, clock) as store:
        code = invite(store, "Eve", "annotator").code
    with StudyService.open(study_file, clock=clock, person_session=True) as service:
        assert service.codes_required() is True  # the file has invitations
        assert service.pickable_profiles() == []
        with pytest.raises(CrmTuiError, match="invitation code first"):
            service.open_next(1)
        eve = service.redeem_code(code, "terminal")
        assert service.open_next(eve.id) is not None
        dana = 1
        for call, args in (
            (service.progress, (dana,)),
            (service.open_next, (dana,)),
            (service.audit_items, (eve.id,)),  # Eve's own: still refused (an annotator)
            (service.report_for, (eve.id,)),
            (service.report, ()),
            (service.profiles, ()),
            (service.submit_answer, (999, "x")),  # not an attempt this session opened
        ):
            with pytest.raises(CrmTuiError):
                call(*args)


def test_a_plain_local_session_picks_and_acts_only_as_annotators(study_file, clock):
    with StudyService.open(study_file, clock=clock, person_session=True) as service:
        assert service.codes_required() is False
        assert [p.name for p in service.pickable_profiles()] == ["Dana"]
        boss = 2
        for call in (service.progress, service.audit_items, service.report_for):
            with pytest.raises(CrmTuiError):
                call(boss)
        with pytest.raises(CrmTuiError, match="made by invitation"):
            service.create_profile("Max", "Lead", 1, mode="coordinator")
        assert service.create_profile("Kim", "Agent", 1).mode == "annotator"
    # the CLI (the whole file) still builds the report; and so does an invited auditor
    with StudyStore.open(study_file, clock) as store:
        code = invite(store, "Aud", "auditor").code
    with StudyService.open(study_file, clock=clock, person_session=True) as service:
        service.codes_required()
        aud = service.redeem_code(code, "terminal")
        assert service.report_for(aud.id).study == "s"
        assert len(service.audit_items(aud.id)) == 1
    with StudyService.open(study_file, clock=clock) as service:
        assert service.report().study == "s"


def test_has_invitations(store):
    assert invitations.has_invitations(store) is False
    invite(store, "Ana", "annotator")
    assert invitations.has_invitations(store) is True


def test_a_right_code_starts_the_count_of_wrong_ones_again(store):
    """Wrong codes before a right one from the same source no longer count: people who
    share a terminal (or mistype now and then) are not locked out by each other."""
    code = invite(store, "Ana", "annotator").code
    for _ in range(2):
        for _ in range(MAX_FAILURES - 1):
            assert refused(store, "2345-6789-ABCD-EFGH", "terminal:ana@desk") == BAD_CODE
        assert redeem(store, code, "terminal:ana@desk").name == "Ana"


def test_a_terminal_counts_per_person_and_machine(monkeypatch):
    """The source of a terminal's tries names its user and machine: wrong codes on one
    machine of a shared study server do not lock out another's."""
    import getpass
    import socket

    from crm_tui import paths
    from crm_tui.cli.main import code_source

    monkeypatch.delenv(paths.CODE_SOURCE_VARIABLE, raising=False)
    monkeypatch.setattr(getpass, "getuser", lambda: "rae")
    monkeypatch.setattr(socket, "gethostname", lambda: "desk-7")
    assert code_source() == "terminal:rae@desk-7"
    monkeypatch.setattr(socket, "gethostname", lambda: "desk-8")
    assert code_source() == "terminal:rae@desk-8"

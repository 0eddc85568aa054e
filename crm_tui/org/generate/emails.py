"""E-mail threads of a case: the steps by the case's stage and the chat's place, then texts.

The customer writes in their own style (writing_style.CustomerStyle) and signs the same
way every time; each agent greets and signs with their own voice (one signature per agent,
never changing mid-thread). The offer is made in one channel: when the chat carries it,
e-mails after the chat follow up without naming it again.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from crm_tui.org.generate.agent_phrases import agent_phrases
from crm_tui.org.generate.writing_style import AgentVoice, CustomerStyle, join_lead, vary

NEW, OPEN, RESOLVED = "new", "open", "resolved"
AGENT_STEPS = frozenset({"ack", "offer", "confirm", "final", "still_checking", "follow_up"})
# The whole thread when the e-mails carry the offer, by length.
WITH_OFFER = ("open", "ack", "info", "offer", "accept", "confirm", "thanks", "final")
SHORT_WITH_OFFER = {1: ["open"], 2: ["open", "offer"], 3: ["open", "offer", "accept"]}
BEFORE_OFFER = (
    "open",
    "ack",
    "info",
    "still_checking",
    "nudge",
    "still_checking",
    "nudge",
    "still_checking",
)
AFTER_CHAT_OFFER = ("follow_up", "thanks", "final")
# Before the agent's clarifying question (an empty one: none).
QUESTION_LEADS = (
    "",
    "[To move this forward|So I can sort this out|To get this started][,|:] ",
    "[One question|A quick question|Just one thing][, {first}|]: ",
    "[Could you help me with one detail|I need one detail from you][ on the {short}|]: ",
    "[Before I go ahead|First],[ {first},|] ",
    "[So I can get this right|To make sure I have it right|To check I understand][, {first}|]: ",
    "[One thing would help|It would help to know|I'd like to confirm one thing][ about the {short}|]: ",
)
CHASE_AFTER_HOURS = 24  # a customer chases only when the agent has been quiet this long
# A customer's reply to an agent's recent update, where a later one would chase.
UPDATE_THANKS = (
    "[Thanks for the update|Thanks for letting me know|Ok, thanks for checking][.|!] "
    "[I'll wait to hear from you.|Let me know when you know more.|I'll keep an eye on my "
    "inbox.]",
    "[Ok|Okay|Alright], [good to know|understood|noted][.|,] [Please keep me posted.|I'll "
    "wait.|Talk soon.]",
    "[Appreciate the quick reply|Thanks for getting back to me so fast][.|!] [I'll wait for "
    "the next e-mail.|No rush.|Keep me posted.]",
)


def email_steps(n: int, *, stage: str, carries_offer: bool, before_chat: int | None) -> list[str]:
    """The steps of a thread of (at most) `n` e-mails.

    stage NEW: only the customer writes (the opening e-mail, then nudges). OPEN or an
    offer made in chat later: the thread stops before any offer. `before_chat` is the
    number of e-mails sent before the chat (None: no chat); when the chat carries the
    offer, e-mails after it follow up.
    """
    if stage == NEW:
        return ["open"] + ["nudge"] * min(1, n - 1)
    if carries_offer and stage == RESOLVED:
        return list(SHORT_WITH_OFFER.get(n, WITH_OFFER[:n]))
    if stage == RESOLVED and before_chat is not None:  # the chat made the offer
        k = max(1, before_chat)
        before = list(BEFORE_OFFER[: min(k, n)])
        return before + list(AFTER_CHAT_OFFER[: max(0, n - len(before))])
    return list(BEFORE_OFFER[:n])


@dataclass
class ThreadVoices:
    """What a thread's e-mails may say."""

    slots: dict[str, str]
    style: CustomerStyle
    issue: int
    info: int
    description: str
    offer_text: str  # the offer sentence with its lead, "" if none
    offered: str | None
    answered: frozenset[int] = frozenset()  # nudges coming soon after an agent's message


def email_bodies(
    r: random.Random,
    steps: list[str],
    voice_of: Callable[[int], AgentVoice],
    v: ThreadVoices,
) -> list[tuple[bool, str]]:
    """(agent?, body) per step; `voice_of(i)` is the voice of the agent writing e-mail i."""
    s = v.slots
    style = v.style
    ap = agent_phrases()
    question, answer = ap.info[v.issue][v.info % len(ap.info[v.issue])]

    def one(options: tuple[str, ...]) -> str:
        return vary(r, options[r.randrange(len(options))]).format_map(s)

    def signed(text: str) -> str:
        return (
            style.polish(r, text) + "\n\n" + style.signoff.format(first=s["first"], full=s["full"])
        )

    out: list[tuple[bool, str]] = []
    asked = False  # the customer asked how long it takes
    for i, step in enumerate(steps):
        if step in AGENT_STEPS:
            voice = voice_of(i)
            greeting = voice.greeting.format(first=s["first"])
            if step == "ack":
                ask = join_lead(one(QUESTION_LEADS), vary(r, question))
                text = f"{one(ap.acks)} {ask.format_map(s)}"
            elif step == "offer":
                lead = one(ap.acks) + " " if len(steps) <= 3 else ""
                text = f"{lead}{one(ap.empathy[v.issue])} {v.offer_text}"
                if r.random() < 0.4 and v.offered:
                    text += " " + one(ap.timelines[v.offered])
            elif step == "confirm":
                text = one(ap.confirms)
                if v.offered and (asked or r.random() < 0.3):  # answers "how long?"
                    text += " " + one(ap.timelines[v.offered])
            elif step == "still_checking":
                text = one(ap.still_checking)
            elif step == "follow_up":
                text = one(ap.follow_ups)
            else:
                text = one(ap.finals)
            text = voice.words.apply(text)
            if voice.recap and step in ("ack", "offer"):  # their habit: the case at the top
                text = vary(r, voice.recap).format_map(s) + "\n\n" + text
            out.append((True, f"{greeting}\n\n{text}\n\n{voice.signature}"))
            continue
        if step == "open":
            greeting = style.greeting.format(company=s["company"])
            out.append((False, (greeting + "\n\n" if greeting else "") + signed_raw(v, s)))
        elif step == "info":
            out.append((False, signed(vary(r, answer).format_map(s))))
        elif step == "accept":
            text = one(ap.accepts)
            asked = "confirm" in steps[i:] and r.random() < 0.3  # asked only if answered
            if asked:
                text += " " + one(ap.how_long)
            out.append((False, signed(text)))
        elif step == "thanks":
            out.append((False, signed(one(ap.thanks))))
        elif i in v.answered:  # the agent wrote hours ago: nothing to chase yet
            out.append((False, signed(one(UPDATE_THANKS))))
        else:  # nudge
            out.append((False, signed(one(ap.nudges))))
    return out


def signed_raw(v: ThreadVoices, s: dict[str, str]) -> str:
    """The description (already in the customer's words) and their sign-off."""
    return v.description + "\n\n" + v.style.signoff.format(first=s["first"], full=s["full"])

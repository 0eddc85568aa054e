"""Which channel of a case carries the offer, and the steps of its chat and e-mails.

One channel makes the offer: the chat or the e-mails, never both. When the chat carries it,
e-mails after the chat follow up without naming it; when the e-mails carry it, a chat
before the offer promises an e-mail and a chat after it confirms what the e-mail offered.
A case not yet resolved has no offer at all; a New case has no agent activity.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime

from crm_tui.org.generate import chats, emails
from crm_tui.org.generate.writing_style import CustomerStyle

CHAT_CARRIES_SHARE = 0.5  # of cases with both a chat and e-mails


@dataclass
class Plan:
    chat_steps: list[str]  # empty: no chat
    mail_steps: list[str]  # empty: no e-mail

    def offer_in_chat(self) -> int | None:
        return self.chat_steps.index("offer") if "offer" in self.chat_steps else None

    def offer_in_mail(self) -> int | None:
        return self.mail_steps.index("offer") if "offer" in self.mail_steps else None

    def without_decline(self) -> None:
        """Drop a declined first offer (no other resolution could be offered)."""
        self.chat_steps = [s for s in self.chat_steps if s not in ("declined_offer", "decline")]


def plan(
    r: random.Random,
    *,
    stage: str,
    style: CustomerStyle,
    mail_times: list[datetime],
    chat_start: datetime | None,
    said_order: bool,
) -> Plan:
    """The steps of the case's chat (if `chat_start`) and e-mails (one per time)."""
    resolved = stage == emails.RESOLVED
    has_mail = bool(mail_times)
    chat_carries = chat_start is not None and (not has_mail or r.random() < CHAT_CARRIES_SHARE)
    before_chat = None
    if chat_start is not None and has_mail:
        before_chat = sum(1 for t in mail_times if t < chat_start)
        if before_chat % 2 == 0:  # keep customer and agent e-mails alternating
            before_chat += 1
    mail_steps = (
        emails.email_steps(
            len(mail_times),
            stage=stage,
            carries_offer=not chat_carries,
            before_chat=before_chat if chat_carries else None,
        )
        if has_mail
        else []
    )
    chat_steps: list[str] = []
    if chat_start is not None and stage != emails.NEW:
        if chat_carries and resolved:
            role = chats.OFFERS
        elif resolved and "offer" in mail_steps and before_chat is not None:
            offer_time = mail_times[mail_steps.index("offer")]
            role = chats.FOLLOWS if offer_time < chat_start else chats.PRECEDES
        else:
            role = chats.PRECEDES
        chat_steps = chats.chat_steps(
            r, role=role, style=style, can_decline=True, said_order=said_order
        )
    return Plan(chat_steps, mail_steps)

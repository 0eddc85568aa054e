"""Greetings and wishes that fit the writer's local time of day and day of the week.

A phrase drawn without knowing when it is sent ("Good morning", "Have a lovely evening",
"Enjoy the rest of your weekend") is put right for the local time it is sent at; nothing
random is drawn, so fitting a text never moves what the generator draws next.
"""

from __future__ import annotations

import re
from datetime import datetime

GREETING = re.compile(r"\b([Gg])ood (?:morning|afternoon|evening)\b")
EVENING_WISH = re.compile(r"\b(lovely|good|great|nice|your) evening\b")
AFTERNOON_WISH = re.compile(r"\b(lovely|good|great|nice|your) afternoon\b")
NIGHT = re.compile(r"\b([Gg])ood night\b")
THIS_AFTERNOON = re.compile(r"\bthis afternoon\b")
WEEKEND_WISH = re.compile(r"\b(rest of your|good|great|nice|lovely) weekend\b")


def part_of_day(hour: int) -> str | None:
    """ "morning", "afternoon", "evening" or None (the small hours) for a local hour."""
    if 5 <= hour < 12:
        return "morning"
    if 12 <= hour < 18:
        return "afternoon"
    return "evening" if hour >= 18 else None


def fit_time(text: str, local: datetime) -> str:
    """`text` with its time-of-day greetings and wishes fitting `local` (naive local time)."""
    hour = local.hour
    part = part_of_day(hour)
    if "ood " in text:
        text = GREETING.sub(lambda m: f"{m[1]}ood {part}" if part else f"{m[1]}reetings", text)
        if not (hour >= 20 or hour < 4):
            text = NIGHT.sub(lambda m: f"{m[1]}ood day", text)
    if "evening" in text and hour < 16:
        text = EVENING_WISH.sub(r"\1 day", text)
    if "afternoon" in text:
        if not 12 <= hour < 18:
            text = AFTERNOON_WISH.sub(r"\1 day", text)
        if hour >= 16:
            text = THIS_AFTERNOON.sub("today", text)
    if "this morning" in text and not 5 <= hour < 12:
        text = text.replace("this morning", "today")
    if "weekend" in text and local.weekday() < 3:  # Monday to Wednesday: the week
        text = WEEKEND_WISH.sub(r"\1 week", text)
    return text

"""A profile's mode (what the person may see and do), apart from the study's tables: the
app's first screen reads it before the study store and its database library are loaded."""

from __future__ import annotations

from enum import StrEnum


class Mode(StrEnum):
    ANNOTATOR = "annotator"
    COORDINATOR = "coordinator"
    AUDITOR = "auditor"
    CUSTOMER = "customer"  # plays the customer of multi-turn solving (sees the hidden query)

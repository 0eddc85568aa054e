"""The issues cases are about and the vocabulary shared by the texts about them.

Per issue: how often each product kind draws it, days from the order to the case, handle
time and priority. Shared slot values: sizes, relatives, wrong items, occasions. The
phrasings live with their composers: descriptions (description_phrases), chats and e-mails
(agent_phrases, chats); defects per product type in defects.
"""

from __future__ import annotations

import random

from crm_tui.org.generate.assortment import (
    ACCESSORY,
    APPAREL,
    ELECTRONICS,
    EQUIPMENT,
    FOOTWEAR,
)

# Issue names in the order of the policies (kbtexts).
INCORRECT, SIZE, CANCEL, DELAY, WARRANTY, DEFECT, RETURN, OVERCHARGE, UNAVAILABLE, LOYALTY = range(
    10
)

# Relative issue frequency per product kind (same order as above).
ISSUE_WEIGHTS: dict[str, tuple[float, ...]] = {
    FOOTWEAR: (10, 14, 5, 10, 2, 9, 8, 6, 5, 4),
    APPAREL: (10, 16, 5, 10, 0, 7, 9, 6, 6, 4),
    EQUIPMENT: (9, 0, 5, 11, 9, 12, 7, 6, 6, 4),
    ELECTRONICS: (7, 0, 5, 9, 16, 14, 6, 6, 7, 4),
    ACCESSORY: (10, 3, 5, 10, 3, 9, 7, 6, 6, 4),
}
# Days from the order to the case: (min, max) per issue.
DELAYS: tuple[tuple[int, int], ...] = (
    (3, 21),
    (4, 25),
    (0, 2),
    (6, 18),
    (20, 75),
    (2, 28),
    (5, 35),
    (1, 20),
    (0, 12),
    (2, 30),
)
# Base handle time in hours per issue.
HANDLE_HOURS: tuple[float, ...] = (40, 36, 10, 30, 90, 60, 20, 28, 16, 14)
PRIORITY: tuple[tuple[int, int, int], ...] = (  # Low, Medium, High weights per issue
    (30, 50, 20),
    (45, 45, 10),
    (20, 50, 30),
    (25, 50, 25),
    (20, 45, 35),
    (15, 45, 40),
    (50, 40, 10),
    (25, 50, 25),
    (45, 45, 10),
    (55, 40, 5),
)

SIZES: dict[str, tuple[str, ...]] = {
    FOOTWEAR: (
        "size 7",
        "size 8",
        "size 8.5",
        "size 9",
        "size 9.5",
        "size 10",
        "size 10.5",
        "size 11",
        "size 12",
    ),
    APPAREL: ("size XS", "size S", "size M", "size L", "size XL", "size XXL"),
}


RELATIVES = (
    "friend",
    "partner",
    "teammate",
    "roommate",
    "running buddy",
    "kid",
    "son",
    "daughter",
    "wife",
    "husband",
    "brother",
    "sister",
    "dad",
    "mom",
    "coach",
    "niece",
)
RELATIVE_NAMES = (  # names that fit any relative
    "Sam", "Alex", "Jordan", "Taylor", "Casey", "Riley", "Jamie", "Morgan", "Charlie", "Robin",
    "Drew", "Quinn", "Avery", "Parker", "Rowan", "Sage", "Skyler", "Kai", "Reese", "Emerson",
)  # fmt: skip
WRONG_ITEMS = (
    "a pair of socks",
    "a kids' jacket",
    "a yoga mat",
    "the same item in a different color",
    "a water bottle",
    "a men's tee",
    "a different model",
    "a pair of sandals",
    "a completely different shoe",
    "someone else's order",
    "the wrong size",
)
# Occasions any product fits, and those of a category (by index into CATEGORY_NAMES).
ANY_OCCASIONS = ("a trip next week", "my son's birthday", "the holidays", "the start of the season")
CATEGORY_OCCASIONS: dict[int, tuple[str, ...]] = {
    0: ("a race this weekend", "a half marathon"),
    4: ("a hiking trip", "a camping weekend"),
    5: ("a swim meet on Saturday", "swim team tryouts"),
    6: ("a yoga retreat", "my first class"),
    7: ("my team's first game", "a tournament on Saturday"),
    8: ("a golf tournament on Saturday", "a golf trip"),
    9: ("a charity ride", "a cycling trip"),
    10: ("a race this weekend", "a half marathon"),
    11: ("a bootcamp class", "my new training plan"),
}


def with_lead(lead: str, sentence: str) -> str:
    """`lead` ("Since ..., ") followed by `sentence`, de-capitalised unless it starts with I."""
    if not lead:
        return sentence
    first = sentence.split(" ", 1)[0]
    if first != "I" and not first.startswith("I'"):
        sentence = sentence[:1].lower() + sentence[1:]
    return lead + sentence


def pick(r: random.Random, options: tuple[str, ...]) -> str:
    return options[r.randrange(len(options))]

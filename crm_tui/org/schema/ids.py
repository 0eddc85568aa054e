"""Salesforce-style record Ids: 3-character key prefix, 12 characters, 3-character suffix.

The suffix makes an Id case-safe: for each 5-character chunk of the 15-character Id, a
5-bit mask marks which characters are upper-case letters, and the mask indexes
"ABCDEFGHIJKLMNOPQRSTUVWXYZ012345". That is how Salesforce computes it.
"""

from __future__ import annotations

import re
import string

SUFFIX_ALPHABET = string.ascii_uppercase + "012345"
BASE62 = string.digits + string.ascii_uppercase + string.ascii_lowercase
# Two characters after the key prefix name the pod/instance in real Ids; "Lc" marks
# records of a local (generated) org, so they can never be mistaken for CRMArena's "Ws".
LOCAL_INSTANCE = "Lc"
ID_RE = re.compile(r"^[a-zA-Z0-9]{15}([A-Z0-5]{3})?$")


def checksum_suffix(id15: str) -> str:
    if len(id15) != 15:
        raise ValueError(f"A 15-character Id is needed, got {id15!r}")
    suffix = ""
    for chunk in range(3):
        mask = 0
        for bit, ch in enumerate(id15[chunk * 5 : chunk * 5 + 5]):
            if "A" <= ch <= "Z":
                mask |= 1 << bit
        suffix += SUFFIX_ALPHABET[mask]
    return suffix


def to18(record_id: str) -> str:
    """The 18-character form of a 15- or 18-character Id."""
    if len(record_id) == 18:
        return record_id
    return record_id + checksum_suffix(record_id)


def is_valid_id(value: str) -> bool:
    """A well-formed 15- or 18-character Id whose suffix (if any) is right."""
    if not isinstance(value, str) or not ID_RE.match(value):
        return False
    return len(value) == 15 or checksum_suffix(value[:15]) == value[15:]


def same_id(a: str, b: str) -> bool:
    """Ids compare exactly, but a 15-character Id equals its 18-character form."""
    if len(a) == len(b):
        return a == b
    return a[:15] == b[:15] and is_valid_id(a if len(a) == 18 else b)


def base62(n: int, width: int) -> str:
    out = ""
    while n:
        n, r = divmod(n, 62)
        out = BASE62[r] + out
    if len(out) > width:
        raise ValueError(f"{n} does not fit in {width} base-62 digits")
    return out.rjust(width, "0")


def make_id(prefix: str, number: int, instance: str = LOCAL_INSTANCE) -> str:
    """The 18-character Id of the `number`-th record of an object with key `prefix`."""
    if len(prefix) != 3 or len(instance) != 2:
        raise ValueError("key prefix must be 3 characters and instance 2")
    # Real Ids start their counter well above zero: "500Ws000007qifM".
    return to18(prefix + instance + base62(number + 62**5, 10))

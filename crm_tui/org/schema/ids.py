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


# make_id is called once per generated record, so it works on two base-62 digits at a
# time: the 10-digit counter is five "pairs", and each pair's share of the case-safe
# masks (the bits its upper-case letters set) comes from a table. The top three pairs
# change once per 3,844**2 records: they and their share of the suffix are cached.
_PAIRS = [a + b for a in BASE62 for b in BASE62]  # 62**2 two-digit strings
_PAIR = 62**2
_COUNTER_START = 62**5  # real Ids start their counter well above zero: "500Ws000007qifM"


def _pair_masks(first_bit: int) -> list[int]:
    """Per pair: the mask bits its two characters set at `first_bit` and `first_bit + 1`
    (bit 5 falls outside the 5-character chunk and is dropped)."""
    return [
        sum(1 << (first_bit + k) for k, ch in enumerate(pair) if "A" <= ch <= "Z") & 31
        for pair in _PAIRS
    ]


_MASK_D, _MASK_E = _pair_masks(1), _pair_masks(3)
_HEAD_SUFFIX: dict[str, str] = {}
_TOPS: dict[int, tuple[str, str, int]] = {}


def _top(high: int) -> tuple[str, str, int]:
    """Pairs a, b, c of a counter: their text, the suffix character of the chunk they fill
    and the bit c's last digit sets in the next chunk."""
    top = _TOPS.get(high)
    if top is None:
        n, c = divmod(high, _PAIR)
        a, b = divmod(n, _PAIR)
        text = _PAIRS[a] + _PAIRS[b] + _PAIRS[c]
        top = (text, checksum_suffix(text[:5] * 3)[0], 1 if "A" <= text[5] <= "Z" else 0)
        if len(_TOPS) > 4096:  # random numbers (not counters) must not grow it forever
            _TOPS.clear()
        _TOPS[high] = top
    return top


def make_id(prefix: str, number: int, instance: str = LOCAL_INSTANCE) -> str:
    """The 18-character Id of the `number`-th record of an object with key `prefix`."""
    head = prefix + instance
    head_suffix = _HEAD_SUFFIX.get(head)
    if head_suffix is None:
        if len(prefix) != 3 or len(instance) != 2:
            raise ValueError("key prefix must be 3 characters and instance 2")
        head_suffix = _HEAD_SUFFIX[head] = checksum_suffix(head * 3)[0]
    n = number + _COUNTER_START
    if not 0 <= n < _PAIR**5:
        raise ValueError(f"{number} does not fit in 10 base-62 digits")
    high, low = divmod(n, _PAIR * _PAIR)
    text, top_suffix, c_bit = _TOPS.get(high) or _top(high)
    d, e = divmod(low, _PAIR)
    return (
        head
        + text
        + _PAIRS[d]
        + _PAIRS[e]
        + head_suffix
        + top_suffix
        + SUFFIX_ALPHABET[c_bit | _MASK_D[d] | _MASK_E[e]]
    )

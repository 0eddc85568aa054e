"""Property tests run the same examples on every run by default (the `ci` profile: a fixed
seed, no example database), so the suite passes or fails on the code alone. Fuzzing for
longer is on purpose: `HYPOTHESIS_PROFILE=fuzz pytest tests -k fuzz_or_property` draws fresh
examples and many more of them (`FUZZ_FACTOR` times each test's count)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
FUZZ_FACTOR = 40

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("fuzz", derandomize=False, print_blob=True)
settings.load_profile(PROFILE)


def property_settings(max_examples: int) -> settings:
    """A property test's settings: `max_examples` in CI, `FUZZ_FACTOR` times more when fuzzing."""
    return settings(
        max_examples=max_examples * (FUZZ_FACTOR if PROFILE == "fuzz" else 1),
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture],
    )

"""The LLM simulated customer's tests: litellm offline (mock responses, its bundled price list)."""

from __future__ import annotations

import os

import pytest


def importorskip_litellm():
    """litellm, told to read its bundled price list (not fetch it from the web)."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    return pytest.importorskip("litellm", reason="the optional `llm` extra is not installed")

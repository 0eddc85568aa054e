"""Fetching CRMArena's task file from where CRMArena publishes it: the Hugging Face dataset.

The file lands in the Hugging Face cache (HF_HOME; HF_HUB_OFFLINE=1 reuses it without the
network), then is read and validated like any task file, so a fetched set and an imported
one are the same thing. HF_ENDPOINT (or `endpoint`) points at a mirror.
"""

from __future__ import annotations

import logging
import socket
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from crm_tui.errors import CrmTuiError
from crm_tui.tasks.taskset import TaskSet, imported, load_taskset

REPO_ID = "Salesforce/CRMArena"
FILENAME = "crmarena_w_metadata.json"  # the dataset's file with every instance's metadata
DEFAULT_REVISION = "main"
DEFAULT_ENDPOINT = "https://huggingface.co"
PROBE_TIMEOUT_S = 5


@dataclass(frozen=True)
class FetchedTaskSet:
    taskset: TaskSet
    cached_file: Path
    source: str  # "Salesforce/CRMArena/crmarena_w_metadata.json@<revision>"
    from_cache_only: bool = False  # the Hub did not answer; the cached copy was used


def fetch_crmarena(
    revision: str = DEFAULT_REVISION,
    endpoint: str | None = None,
    cache_dir: Path | None = None,
) -> FetchedTaskSet:
    """Download (or reuse from the cache) CRMArena's task file and validate it."""
    # Imported here: the hub client pulls in an HTTP stack that no other command needs.
    from huggingface_hub import hf_hub_download, try_to_load_from_cache
    from huggingface_hub.errors import (
        EntryNotFoundError,
        GatedRepoError,
        LocalEntryNotFoundError,
        RepositoryNotFoundError,
        RevisionNotFoundError,
    )

    where = f"{REPO_ID}/{FILENAME}@{revision}"
    if not _answers(endpoint or DEFAULT_ENDPOINT):
        # The hub client would retry for ~25 s before giving up: answer at once, from the
        # cache when a copy of this revision is there.
        cached_copy = try_to_load_from_cache(
            REPO_ID, FILENAME, cache_dir=cache_dir, revision=revision, repo_type="dataset"
        )
        if not isinstance(cached_copy, str):
            raise CrmTuiError(
                f"{where}: could not reach the Hugging Face Hub at {endpoint or DEFAULT_ENDPOINT} "
                "and the file is not in the cache; try again online, or download the file by "
                "hand and use `crm-tui tasks import FILE`"
            )
        path = Path(cached_copy)
        return FetchedTaskSet(imported(load_taskset(path)), path, where, from_cache_only=True)
    # Its retry warnings would interleave with our one-line errors.
    logging.getLogger("huggingface_hub").setLevel(logging.ERROR)
    try:
        cached = hf_hub_download(
            repo_id=REPO_ID,
            filename=FILENAME,
            repo_type="dataset",
            revision=revision,
            endpoint=endpoint,
            cache_dir=cache_dir,
        )
    # Most specific first: LocalEntryNotFoundError is an EntryNotFoundError, and the
    # gated/revision errors are RepositoryNotFoundErrors.
    except GatedRepoError:
        raise CrmTuiError(
            f"{where}: the dataset asks for a login; accept its terms on huggingface.co and "
            "set HF_TOKEN, or download the file by hand and use `crm-tui tasks import FILE`"
        ) from None
    except RevisionNotFoundError:
        raise CrmTuiError(f"{where}: no revision {revision!r} in the dataset") from None
    except LocalEntryNotFoundError:
        raise CrmTuiError(
            f"{where}: could not reach the Hugging Face Hub and the file is not in the cache; "
            "try again online, or download the file by hand and use `crm-tui tasks import FILE`"
        ) from None
    except EntryNotFoundError:
        raise CrmTuiError(f"{where}: the dataset has no file {FILENAME!r}") from None
    except RepositoryNotFoundError:
        raise CrmTuiError(f"{where}: no dataset {REPO_ID!r} at that address") from None
    except OSError as exc:  # HTTP errors of the hub client derive from OSError too
        reason = " ".join(str(exc).split())[:200]
        raise CrmTuiError(f"{where}: download failed ({reason})") from None
    path = Path(cached)
    return FetchedTaskSet(imported(load_taskset(path)), path, where)


def _answers(endpoint: str) -> bool:
    """Whether anything accepts a connection at the endpoint's host and port."""
    parts = urlsplit(endpoint)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        with socket.create_connection((parts.hostname or "", port), timeout=PROBE_TIMEOUT_S):
            return True
    except OSError:
        return False

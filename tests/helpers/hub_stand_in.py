"""A stand-in for the Hugging Face Hub on 127.0.0.1: serves dataset files the way the
Hub's resolve endpoint does (HEAD with commit and etag headers, then GET), so the real
huggingface_hub client downloads from it. Never the network."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

COMMIT = "0123456789abcdef0123456789abcdef01234567"


@dataclass
class HubStandIn:
    """files: (repo_id, revision, filename) -> bytes; requests: the paths asked for."""

    files: dict[tuple[str, str, str], bytes]
    gated: set[str] = field(default_factory=set)
    requests: list[str] = field(default_factory=list)
    url: str = ""


def _handler(hub: HubStandIn) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:  # keep pytest's output clean
            pass

        def _answer(self, with_body: bool) -> None:
            hub.requests.append(f"{self.command} {self.path}")
            # /datasets/<owner>/<name>/resolve/<revision>/<filename>
            parts = self.path.split("?")[0].strip("/").split("/")
            if len(parts) < 6 or parts[0] != "datasets" or parts[3] != "resolve":
                return self._error(404, "RepoNotFound", "Repository not found")
            repo_id, revision, filename = f"{parts[1]}/{parts[2]}", parts[4], "/".join(parts[5:])
            if repo_id in hub.gated:
                return self._error(401, "GatedRepo", "Access to this dataset is restricted")
            if not any(key[0] == repo_id for key in hub.files):
                return self._error(404, "RepoNotFound", "Repository not found")
            if not any(key[:2] == (repo_id, revision) for key in hub.files):
                return self._error(404, "RevisionNotFound", "Invalid rev id")
            body = hub.files.get((repo_id, revision, filename))
            if body is None:
                return self._error(404, "EntryNotFound", "Entry not found")
            self.send_response(200)
            self.send_header("X-Repo-Commit", COMMIT)
            self.send_header("ETag", f'"{hashlib.sha256(body).hexdigest()}"')
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            if with_body:
                self.wfile.write(body)

        def _error(self, status: int, code: str, message: str) -> None:
            body = f'{{"error": "{message}"}}'.encode()
            self.send_response(status)
            self.send_header("X-Error-Code", code)
            self.send_header("X-Error-Message", message)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def do_HEAD(self) -> None:
            self._answer(with_body=False)

        def do_GET(self) -> None:
            self._answer(with_body=True)

    return Handler


@contextmanager
def hub_stand_in(files: dict[tuple[str, str, str], bytes]) -> Iterator[HubStandIn]:
    hub = HubStandIn(files)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(hub))
    hub.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield hub
    finally:
        server.shutdown()
        server.server_close()

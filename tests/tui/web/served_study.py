"""`crm-tui web` as a real process on a free loopback port, and a browser tab on it.

The tab is headless Chromium (Debian's, through Playwright). The app inside draws on a
canvas (xterm.js), so the tab's text is read from what the app sends over the websocket,
with the terminal's escape sequences stripped; keys go in through the page's keyboard.
"""

from __future__ import annotations

import contextlib
import io
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crm_tui.cli import main
from crm_tui.web.server import SHUTDOWN_SECONDS
from tests.helpers.paths import ROOT
from tests.helpers.waiting import wait_until

CHROMIUM = Path("/usr/bin/chromium")
# As root in CI: no sandbox; nothing that would reach the network on its own.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ESCAPES = re.compile(
    r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-B]|[=>78])"
)


def cli(*argv: object) -> str:
    """Run a crm-tui command in this process, as the documentation shows it; its stdout."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main([str(a) for a in argv])
    return out.getvalue()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Served:
    """A running `crm-tui web`; `lines` is what it printed on stdout once listening.
    Its output goes to files, which a long run cannot fill as it would a pipe."""

    process: subprocess.Popen[bytes]
    url: str
    lines: list[str]
    stderr: Path

    def stop(self) -> str:
        """SIGTERM, as a service manager stops it; returns what it wrote on stderr."""
        self.process.send_signal(signal.SIGTERM)
        try:  # the server gives its tabs' apps SHUTDOWN_SECONDS to quit
            self.process.wait(timeout=SHUTDOWN_SECONDS + 15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        return self.stderr.read_text()


def serve(*options: str, folder: Path, env: dict[str, str], port: int | None = None) -> Served:
    """Start `crm-tui web` and wait for its announcement (printed once it listens); its
    output goes to files in `folder`."""
    port = port or free_port()
    stdout, stderr = folder / "stdout", folder / "stderr"
    with stdout.open("wb") as out, stderr.open("wb") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "crm_tui", "web", "--port", str(port), *options],
            stdout=out,
            stderr=err,
            cwd=ROOT,
            env=env,
        )

    def announced() -> list[str] | None:
        lines = stdout.read_text().splitlines()
        if len(lines) >= 2 or process.poll() is not None:
            return lines or [""]
        return None

    lines = wait_until(announced, "crm-tui web to listen", timeout=60)
    if not lines[0].startswith("Serving"):
        process.kill()
        raise AssertionError(f"crm-tui web did not start: {lines} {stderr.read_text()!r}")
    return Served(process, f"http://127.0.0.1:{port}", lines[:2], stderr)


@dataclass
class BrowserTab:
    """A page on the served app: `text()` is what the app drew since `mark()`."""

    page: Any  # playwright.sync_api.Page
    output: bytearray = field(default_factory=bytearray)

    def __post_init__(self) -> None:
        self.page.on("websocket", self._watch)

    def _watch(self, websocket: Any) -> None:
        websocket.on("framereceived", self._received)

    def _received(self, payload: str | bytes) -> None:
        if isinstance(payload, bytes):  # the app's output; strings are control messages
            self.output.extend(payload)

    def open(self, url: str) -> None:
        self.page.goto(url)
        self.page.wait_for_selector("body.-first-byte", timeout=30_000)
        self.page.focus(".xterm-helper-textarea")  # where xterm.js takes keys

    def mark(self) -> int:
        return len(self.output)

    def text(self, since: int = 0) -> str:
        return ESCAPES.sub("", self.output[since:].decode("utf-8", "replace"))

    def pause(self) -> None:
        """Wait a little while the page goes on receiving (a plain sleep would stall it)."""
        self.page.wait_for_timeout(100)

    def wait_until(self, condition: Callable[[], Any], what: str, timeout: float = 20.0) -> Any:
        return wait_until(condition, what, timeout, pause=self.pause)

    def wait_for_text(self, text: str, since: int = 0, timeout: float = 20.0) -> None:
        try:
            self.wait_until(lambda: text in self.text(since), f"{text!r} in the tab", timeout)
        except AssertionError:
            tail = self.text(since)[-1500:]
            raise AssertionError(f"the tab never showed {text!r}; it last drew {tail!r}") from None

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)

    def press(self, *keys: str) -> None:
        for key in keys:
            self.page.keyboard.press(key)


@contextlib.contextmanager
def chromium(profile: Path) -> Iterator[Any]:
    """Debian's Chromium (never Playwright's download), headless, on the profile folder
    `profile`; the browser context, closed after."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=str(CHROMIUM),
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 800},
        )
        try:
            yield context
        finally:
            context.close()


def invitation_code(db: Path, study: str, name: str, role: str) -> str:
    """A new invitation through `crm-tui study invite`: the code it printed."""
    printed = cli("study", "invite", name, "--role", role, "--study", study, "--db", db)
    found = re.search(r"^code: (\S+)$", printed, re.M)
    assert found is not None, printed
    return found[1]


def sign_in(tab: BrowserTab, url: str, code: str, home_text: str) -> None:
    """Open the served app in `tab`, enter the invitation code, wait for the home screen."""
    tab.open(url)
    tab.wait_for_text("invitation code", timeout=30)
    mark = tab.mark()
    tab.type(code)
    tab.wait_for_text(code, since=mark)
    tab.press("Enter")
    tab.wait_for_text(home_text, since=mark)

"""The web server behind `crm-tui web`: textual-serve, one app process per browser tab.

textual-serve's own `Server` does the work (the page with xterm.js, a websocket per tab,
each tab's app in its own process). This subclass changes what a study needs: it binds
before it announces itself (a busy port is one line naming it), its log shows no local
variables in tracebacks, a websocket from another site's page is refused (a page elsewhere
cannot open sessions in an annotator's browser), and each tab's app learns who is on the
other end (CRM_TUI_CODE_SOURCE), so wrong invitation codes lock out that browser's
address, not everyone's. Tabs are capped (each runs an app of ~130 MB): a tab past the cap
is told so in its terminal and closed, and no app is started for it.
"""

from __future__ import annotations

import asyncio
import ctypes
import logging
import signal
import socket
import sys
from asyncio.subprocess import Process
from collections import Counter
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from crm_tui.errors import CrmTuiError
from crm_tui.paths import CODE_SOURCE_VARIABLE, is_loopback

log = logging.getLogger("textual-serve")

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
WILDCARDS = ("0.0.0.0", "::", "")  # every address of the machine, loopback included
SHUTDOWN_SECONDS = 15.0  # for the tabs' apps to quit once told to
PR_SET_PDEATHSIG = 1  # prctl(2): a signal for this process when its parent dies
_LIBC = ctypes.CDLL(None) if sys.platform == "linux" else None


def url_host(host: str) -> str:
    """`host` as browsers reach it in a URL: an IPv6 address in brackets, and this
    machine's name for the wildcard addresses (which no browser can open)."""
    if host in WILDCARDS:
        return socket.getfqdn()
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def to_int(text: str, default: int) -> int:
    try:
        return int(text)
    except ValueError:
        return default


def client_address(request: web.Request, trust_proxy: bool = False) -> str:
    """The browser's address: the peer; only when told a reverse proxy on this host is in
    front (`trust_proxy`), the address the proxy appended last to X-Forwarded-For (earlier
    entries are the client's own word, and without a proxy so is the whole header)."""
    peer = request.remote or "unknown"
    forwarded = request.headers.get("X-Forwarded-For")
    if trust_proxy and forwarded and is_loopback(peer):
        return forwarded.split(",")[-1].strip() or peer
    return peer


def _end_with_the_server() -> None:
    """In a tab's process before it starts (Linux): SIGTERM when the server dies, even by
    SIGKILL; the app does not stop by itself when its input closes. The attempt it had
    open resumes as after any crash."""
    if _LIBC is not None:
        _LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


class TabAppService(AppService):
    """textual-serve's app process for one tab, with the tab's own environment, ending
    with the server."""

    def __init__(self, *args: Any, environment: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.environment = environment

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        return super()._build_environment(width, height) | self.environment

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        # textual-serve 1.1.3's, with the end-with-the-server hook.
        self._process = process = await asyncio.create_subprocess_shell(
            self.command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=self._build_environment(width=width, height=height),
            preexec_fn=_end_with_the_server if _LIBC is not None else None,
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process


class StudyWebServer(Server):
    """textual-serve's server for one command line, announced by `announce` once listening."""

    def __init__(
        self,
        command: str,
        *,
        host: str,
        port: int,
        public_url: str,
        title: str,
        announce: Callable[[], None],
        environment: dict[str, str],
        max_tabs: int,
        max_tabs_per_address: int | None = None,
        trust_proxy: bool = False,
    ) -> None:
        super().__init__(command, host=host, port=port, title=title, public_url=public_url)
        self.announce = announce
        self.max_tabs = max_tabs
        self.max_tabs_per_address = max_tabs_per_address or max_tabs
        self.trust_proxy = trust_proxy
        self.tabs_by_address: Counter[str] = Counter()
        self.environment = environment  # for every tab's process, on top of the server's
        self.tabs: set[web.WebSocketResponse] = set()
        self.allowed_origins = {origin_of(public_url)}
        if is_loopback(host) or host in WILDCARDS:  # this server reached from the local host
            self.allowed_origins |= {f"http://{name}:{port}" for name in LOOPBACK_NAMES}

    def initialize_logging(self) -> None:
        # textual-serve's own handler prints tracebacks with their local variables, which
        # may hold what a person typed (a code, an answer): plain lines instead.
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")

    async def on_startup(self, app: web.Application) -> None:
        """Nothing: `run` announces the server once the port is bound."""

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One tab: its app process, fed the tab's keys until either side closes.

        textual-serve 1.1.3's handler, with the origin check and the tab's own environment.
        """
        origin = request.headers.get("Origin")
        if origin is not None and origin.lower() not in self.allowed_origins:
            log.warning("refused a session opened from another site's page (%s)", origin)
            raise web.HTTPForbidden(text="This server only serves its own page.\n")
        websocket = web.WebSocketResponse(heartbeat=15)
        width = to_int(request.query.get("width", "80"), 80)
        height = to_int(request.query.get("height", "24"), 24)
        app_service: TabAppService | None = None
        address = client_address(request, self.trust_proxy)
        counted = False
        try:
            await websocket.prepare(request)
            if len(self.tabs) >= self.max_tabs:
                await self._turn_away(websocket)
                return websocket
            if self.tabs_by_address[address] >= self.max_tabs_per_address:
                await self._turn_away_address(websocket, address)
                return websocket
            self.tabs.add(websocket)
            self.tabs_by_address[address] += 1
            counted = True
            app_service = TabAppService(
                self.command,
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=websocket.close,
                download_manager=self.download_manager,
                debug=self.debug,
                environment=self.environment | {CODE_SOURCE_VARIABLE: f"browser {address}"},
            )
            await app_service.start(width, height)
            try:
                await self._process_messages(websocket, app_service)
            finally:
                # The tab is gone (closed, reloaded, network lost): its app is told to quit.
                await app_service.stop()
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # one tab's failure is logged; the server goes on
            log.error("a browser session failed: %r", error)
        finally:
            self.tabs.discard(websocket)
            if counted:
                self.tabs_by_address[address] -= 1
                if not self.tabs_by_address[address]:
                    del self.tabs_by_address[address]
            if app_service is not None:
                await app_service.stop()
        return websocket

    async def _turn_away_address(self, websocket: web.WebSocketResponse, address: str) -> None:
        """A tab past the cap for one address: one line in its terminal, closed."""
        log.warning(
            "turned a tab away: %s has %d tabs open, the cap per address (--max-tabs-per-address)",
            address,
            self.tabs_by_address[address],
        )
        await websocket.send_bytes(
            f"\r\nThis study server already serves {self.tabs_by_address[address]} browser "
            "tab(s) to your address, its cap per address. Close another tab of it, or ask "
            "the study coordinator (crm-tui web --max-tabs-per-address).\r\n".encode()
        )
        await websocket.close()

    async def _turn_away(self, websocket: web.WebSocketResponse) -> None:
        """A tab past the cap: one line in its terminal (xterm.js shows the bytes), closed."""
        log.warning("turned a tab away: %d tabs open, the cap (--max-tabs)", len(self.tabs))
        await websocket.send_bytes(
            f"\r\nThis study server is full: it serves {len(self.tabs)} browser tab(s), its "
            "cap. Close another tab of it or try again in a few minutes; the study "
            "coordinator can raise the cap (crm-tui web --max-tabs).\r\n".encode()
        )
        await websocket.close()

    def run(self) -> None:
        """Serve until SIGINT or SIGTERM; a port that cannot be bound is a `CrmTuiError`."""
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        runner = web.AppRunner(
            await self._make_app(), handle_signals=False, shutdown_timeout=SHUTDOWN_SECONDS
        )
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        try:
            await site.start()
        except OSError as exc:
            await runner.cleanup()
            reason = exc.strerror or str(exc)
            raise CrmTuiError(
                f"cannot listen on {self.host} port {self.port}: {reason} "
                "(choose another with --port)"
            ) from None
        self.initialize_logging()  # once serving: a refusal above is one line, no log
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
        self.announce()
        try:
            await stop.wait()
        finally:
            # Each tab is closed, which tells its app to quit; aiohttp would otherwise wait
            # for the browsers to close them. An app still running when the server exits
            # gets SIGTERM (`_end_with_the_server`).
            await asyncio.gather(*(tab.close() for tab in list(self.tabs)))
            await runner.cleanup()

"""Every place the browser server builds on textual-serve's inner methods, one test each:
an upgrade of textual-serve that renames, re-signs or changes one of them fails here,
naming the method, before a served study finds out. (The served study's behaviour as a
whole runs in a real browser in tests/tui/web.)"""

from __future__ import annotations

import asyncio
import inspect
import logging
import sys
from collections.abc import Callable

import pytest
from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from crm_tui.web.server import StudyWebServer, TabAppService

TAB_ENVIRONMENT = {"CRM_TUI_CODE_SOURCE": "browser 127.0.0.1"}


def tab(command: str = "true") -> TabAppService:
    async def nothing(*_args: object) -> None:
        return None

    return TabAppService(
        command,
        write_bytes=nothing,
        write_str=nothing,
        close=nothing,
        download_manager=None,
        environment=TAB_ENVIRONMENT,
    )


def server() -> StudyWebServer:
    return StudyWebServer(
        "true",
        host="127.0.0.1",
        port=8000,
        public_url="http://127.0.0.1:8000",
        title="t",
        announce=lambda: None,
        environment={},
        max_tabs=1,
    )


def same_signature(ours: Callable[..., object], theirs: Callable[..., object]) -> None:
    assert inspect.signature(ours) == inspect.signature(theirs), (ours, theirs)


def test_build_environment_keeps_textual_serves_and_adds_the_tabs():
    same_signature(TabAppService._build_environment, AppService._build_environment)
    environment = tab()._build_environment(100, 30)
    assert environment["TEXTUAL_DRIVER"] == "textual.drivers.web_driver:WebDriver"
    assert (environment["COLUMNS"], environment["ROWS"]) == ("100", "30")
    assert environment["CRM_TUI_CODE_SOURCE"] == "browser 127.0.0.1"


def test_open_app_process_starts_the_command_with_the_tabs_environment():
    same_signature(TabAppService._open_app_process, AppService._open_app_process)
    service = tab(f"{sys.executable} -c \"import os; print(os.environ['CRM_TUI_CODE_SOURCE'])\"")

    async def run() -> bytes:
        process = await service._open_app_process(80, 24)
        assert service._stdin is process.stdin and service._process is process
        out, _ = await process.communicate()
        return out

    assert asyncio.run(run()).strip() == b"browser 127.0.0.1"


def test_app_service_is_made_with_the_arguments_handle_websocket_passes():
    parameters = inspect.signature(AppService.__init__).parameters
    assert {"write_bytes", "write_str", "close", "download_manager", "debug"} <= set(parameters)
    assert inspect.iscoroutinefunction(AppService.start)
    assert list(inspect.signature(AppService.start).parameters) == ["self", "width", "height"]
    assert inspect.iscoroutinefunction(AppService.stop)


def test_initialize_logging_prints_plain_lines():
    same_signature(StudyWebServer.initialize_logging, Server.initialize_logging)
    root = logging.getLogger()
    before = list(root.handlers)
    for handler in before:
        root.removeHandler(handler)
    try:
        server().initialize_logging()
        assert [type(h) for h in root.handlers] == [logging.StreamHandler]
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in before:
            root.addHandler(handler)


def test_on_startup_is_the_hook_textual_serves_app_calls():
    same_signature(StudyWebServer.on_startup, Server.on_startup)
    app = asyncio.run(server()._make_app())
    assert any(
        getattr(hook, "__func__", None) is StudyWebServer.on_startup for hook in app.on_startup
    )


def test_make_app_routes_websockets_to_our_handler():
    same_signature(StudyWebServer.handle_websocket, Server.handle_websocket)
    ours = server()
    app = asyncio.run(ours._make_app())
    assert isinstance(app, web.Application)
    handlers = {
        route.resource.canonical: route.handler
        for route in app.router.routes()
        if route.resource is not None
    }
    assert getattr(handlers["/ws"], "__func__", None) is StudyWebServer.handle_websocket


def test_process_messages_takes_the_websocket_and_the_app_service():
    assert inspect.iscoroutinefunction(Server._process_messages)
    assert list(inspect.signature(Server._process_messages).parameters) == [
        "self",
        "websocket",
        "app_service",
    ]


@pytest.mark.parametrize("attribute", ["command", "host", "port", "debug", "download_manager"])
def test_the_servers_attributes_we_read_are_there(attribute):
    assert hasattr(server(), attribute)

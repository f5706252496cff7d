"""Shared fixtures: the live server started by scripts/test-sdk-python.sh, real local HTTP servers, and ``Api``, which
runs one test body against ``meridian.Meridian`` and ``meridian.AsyncMeridian`` alike.

The live server's address and keys come from the environment the test script sets:
MERIDIAN_BASE_URL, MERIDIAN_API_KEY (admin key of the NYC demo tenant) and MERIDIAN_TINY_KEY (a key of a tenant
limited to 2 requests per minute, which only the CLI can make: tenants have no API). The read-only key is made through
the API (``POST /api-keys``) by the ``read_key`` fixture. Nothing is mocked: behaviour
the live server cannot produce on demand (5xx, timeouts, dropped connections, a running agent) is served by a real
``http.server`` on 127.0.0.1.

Every test that takes the ``api`` fixture runs twice, ``[sync]`` and ``[async]``: ``api.run(x)`` returns ``x`` for the
sync client and awaits it on the test's own event loop for the async one, and ``api.collect(iterator)`` lists an
iterator or an async iterator, so the same lines test both clients.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import inspect
import json
import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Union

import pytest

import meridian
from meridian.models import ApiKeyScope, Project


def _env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        pytest.fail(f"{name} is not set: run the tests through scripts/test-sdk-python.sh")
    return value


@pytest.fixture(scope="session")
def base_url() -> str:
    return _env("MERIDIAN_BASE_URL")


@pytest.fixture(scope="session")
def api_key() -> str:
    return _env("MERIDIAN_API_KEY")


@pytest.fixture(scope="session")
def tiny_key() -> str:
    return _env("MERIDIAN_TINY_KEY")


@pytest.fixture(scope="session")
def client(base_url: str, api_key: str) -> Iterator[meridian.Meridian]:
    """A sync admin client for set-up work outside the code under test."""
    with meridian.Meridian(api_key=api_key, base_url=base_url) as c:
        yield c


@pytest.fixture(scope="session")
def read_key(client: meridian.Meridian) -> Iterator[str]:
    """A read-only key of the demo tenant, created with the admin key and revoked after the session."""
    created = client.api_keys.create(name=unique("SDK tests (read)"), scopes=[ApiKeyScope.READ])
    assert created.key.startswith("mk_live_")
    yield created.key
    client.api_keys.delete(created.id)


Client = Union[meridian.Meridian, meridian.AsyncMeridian]


class Api:
    """One client of either kind, and the two helpers that let a test body ignore which."""

    def __init__(self, kind: str, **options: Any) -> None:
        self.kind = kind
        self.loop = asyncio.new_event_loop() if kind == "async" else None
        self.client: Any = (meridian.AsyncMeridian if kind == "async" else meridian.Meridian)(**options)

    def run(self, value: Any) -> Any:
        """The value itself (sync client), or the awaited value (async client)."""
        if inspect.isawaitable(value):
            assert self.loop is not None, "the sync client returned an awaitable"
            return self.loop.run_until_complete(value)
        assert self.loop is None, f"the async client returned {type(value).__name__}, not an awaitable"
        return value

    def collect(self, items: Any) -> list[Any]:
        """Every item of an iterator (sync) or an async iterator (async)."""
        if self.loop is not None:
            async def drain() -> list[Any]:
                return [item async for item in items]

            return self.loop.run_until_complete(drain())
        return list(items)

    def __enter__(self) -> Api:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.loop is not None:
            self.loop.run_until_complete(self.client.close())
            self.loop.close()
        else:
            self.client.close()


@pytest.fixture(params=["sync", "async"])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def api(kind: str, base_url: str, api_key: str) -> Iterator[Api]:
    made = Api(kind, api_key=api_key, base_url=base_url)
    yield made
    made.close()


@pytest.fixture
def read_api(kind: str, base_url: str, read_key: str) -> Iterator[Api]:
    made = Api(kind, api_key=read_key, base_url=base_url)
    yield made
    made.close()


@pytest.fixture(scope="session")
def project_json(client: meridian.Meridian) -> dict[str, Any]:
    """A real project exactly as the API sent it (raw body: ``to_json()`` would drop the read-only fields), to serve
    from local servers."""
    page = client.projects.with_raw_response.list(limit=1).http_response.json()
    project: dict[str, Any] = page["data"][0]
    return project


def new_project(api: Api, **fields: Any) -> Project:
    """Creates a project with unique name and code through the client under test."""
    values: dict[str, Any] = {
        "name": unique("SDK project"),
        "code": unique("PY"),
        "start_date": dt.date(2026, 1, 5),
        "end_date": dt.date(2026, 12, 18),
        "budget": 250_000,
        "tags": ["sdk", "python"],
    }
    values.update(fields)
    project: Project = api.run(api.client.projects.create(**values))
    return project


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


# --- a real local HTTP server that answers from a script ------------------------------------------------------------


@dataclass
class Reply:
    """One scripted answer. ``delay`` seconds are slept before answering; ``drop`` closes the connection instead."""

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    drop: bool = False


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    at: float


class ScriptedServer:
    """``http.server`` on 127.0.0.1 (random port) that answers each request with the next ``Reply`` of its script
    (the last one repeats) and records every request it receives."""

    def __init__(self, replies: list[Reply]) -> None:
        self.replies = list(replies)
        self.requests: list[Seen] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # keep pytest's output clean
                pass

            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                outer.requests.append(
                    Seen(self.command, self.path, {k: v for k, v in self.headers.items()}, body, time.monotonic())
                )
                index = min(len(outer.requests), len(outer.replies)) - 1
                reply = outer.replies[index]
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.drop:
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                try:
                    payload = b"" if reply.body is None else json.dumps(reply.body).encode()
                    self.send_response(reply.status)
                    content_type = "application/problem+json" if reply.status >= 400 else "application/json"
                    self.send_header("Content-Type", content_type)
                    self.send_header("Content-Length", str(len(payload)))
                    self.send_header("X-Request-Id", f"req_local_{len(outer.requests)}")
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout test): expected
                    pass

            do_GET = do_POST = do_PATCH = do_DELETE = _answer

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> ScriptedServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def client(self, **options: Any) -> meridian.Meridian:
        return meridian.Meridian(api_key="mk_live_local0000000000000000000000000000000", base_url=self.url, **options)

    def api(self, kind: str, **options: Any) -> Api:
        """A client of the given kind pointed at this server (close it, or use it in ``with``)."""
        return Api(kind, api_key="mk_live_local0000000000000000000000000000000", base_url=self.url, **options)


def problem(status: int, code: str, title: str = "Problem") -> dict[str, Any]:
    return {
        "type": f"https://meridian.example/problems/{code}",
        "title": title,
        "status": status,
        "detail": f"{title} (scripted)",
        "code": code,
        "requestId": f"req_problem_{code}",
    }

"""Retries, Retry-After, idempotency keys, per-call options and polling, with both clients, against real local HTTP
servers (nothing mocked)."""

from __future__ import annotations

import datetime as dt
import re
import time
from typing import Any

import pytest

import meridian
from conftest import Reply, ScriptedServer, problem
from meridian._transport import retry_delay, should_retry_status
from meridian.models import ExecutionStatus, ProjectCreate

BODY = ProjectCreate(name="Retried", start_date=dt.date(2026, 1, 1), end_date=dt.date(2026, 2, 1))


def test_post_succeeds_after_two_503_with_one_idempotency_key(kind: str, project_json: dict[str, Any]) -> None:
    unavailable = Reply(503, problem(503, "service_unavailable"))
    with ScriptedServer([unavailable, unavailable, Reply(201, project_json)]) as server, server.api(kind) as api:
        created = api.run(api.client.projects.with_raw_response.create(BODY))
    assert created.status_code == 201
    assert str(created.data.id) == project_json["id"]
    assert created.headers["X-Request-Id"] == created.request_id == "req_local_3"
    keys = [r.headers.get("Idempotency-Key") for r in server.requests]
    assert len(keys) == 3 and keys[0] and len(set(keys)) == 1
    assert len({r.body for r in server.requests}) == 1  # the same body every attempt
    gaps = [b.at - a.at for a, b in zip(server.requests, server.requests[1:])]
    assert 0.3 <= gaps[0] < 0.6 and 0.7 <= gaps[1] < 1.2  # 0.5 s then 1 s, minus up to 25 % jitter


def test_caller_idempotency_key_is_kept(kind: str, project_json: dict[str, Any]) -> None:
    with ScriptedServer([Reply(503, None), Reply(201, project_json)]) as server, server.api(kind) as api:
        api.run(api.client.projects.create(BODY, idempotency_key="my-key-1"))
    assert [r.headers.get("Idempotency-Key") for r in server.requests] == ["my-key-1", "my-key-1"]


def test_get_carries_no_idempotency_key(kind: str) -> None:
    empty = {"data": [], "pagination": {"limit": 25, "offset": 0, "total": 0, "hasMore": False}}
    with ScriptedServer([Reply(200, empty)]) as server, server.api(kind) as api:
        assert api.run(api.client.projects.list()).data == []
    assert "Idempotency-Key" not in server.requests[0].headers
    assert server.requests[0].headers["Authorization"].startswith("Bearer mk_live_")
    agent = server.requests[0].headers["User-Agent"]
    assert re.fullmatch(rf"meridian-sdk-python/{re.escape(meridian.__version__)} \w+/3\.\d+\.\d+\S* \(.+\) httpx/\S+", agent), agent
    assert server.requests[0].headers["X-Meridian-Client"] == f"meridian-sdk-python/{meridian.__version__}"


def test_429_retry_after_is_honoured(kind: str, project_json: dict[str, Any]) -> None:
    page = {"data": [project_json], "pagination": {"limit": 25, "offset": 0, "total": 1, "hasMore": False}}
    limited = Reply(429, problem(429, "rate_limited"), headers={"Retry-After": "1"})
    with ScriptedServer([limited, Reply(200, page)]) as server, server.api(kind) as api:
        result = api.run(api.client.projects.list())
    assert [str(p.id) for p in result.data] == [project_json["id"]]
    assert len(server.requests) == 2
    assert server.requests[1].at - server.requests[0].at >= 0.95  # Retry-After, not the 0.5 s backoff


def test_retries_stop_at_max_retries(kind: str) -> None:
    with ScriptedServer([Reply(429, problem(429, "rate_limited"), headers={"Retry-After": "0.1"})]) as server:
        with server.api(kind, max_retries=3) as api, pytest.raises(meridian.RateLimitError) as caught:
            api.run(api.client.me.retrieve())
    assert len(server.requests) == 4
    assert caught.value.retry_after == 0.1


def test_dropped_connection_is_retried(kind: str, project_json: dict[str, Any]) -> None:
    with ScriptedServer([Reply(drop=True), Reply(201, project_json)]) as server, server.api(kind) as api:
        created = api.run(api.client.projects.create(BODY))
    assert str(created.id) == project_json["id"]
    assert len(server.requests) == 2
    assert server.requests[0].headers["Idempotency-Key"] == server.requests[1].headers["Idempotency-Key"]


def test_408_is_retried_and_400_is_not(kind: str) -> None:
    with ScriptedServer([Reply(408, None), Reply(400, problem(400, "validation_failed"))]) as server:
        with server.api(kind, max_retries=5) as api, pytest.raises(meridian.BadRequestError):
            api.run(api.client.me.retrieve())
    assert len(server.requests) == 2


def test_max_retries_zero_sends_once(kind: str) -> None:
    with ScriptedServer([Reply(503, None)]) as server:
        with server.api(kind, max_retries=0) as api, pytest.raises(meridian.InternalServerError):
            api.run(api.client.me.retrieve())
    assert len(server.requests) == 1


def test_per_call_max_retries(kind: str) -> None:
    with ScriptedServer([Reply(503, None)]) as server:
        with server.api(kind, max_retries=0) as api, pytest.raises(meridian.InternalServerError):
            api.run(api.client.me.retrieve(max_retries=2))
    assert len(server.requests) == 3
    with ScriptedServer([Reply(503, None)]) as server:
        with server.api(kind, max_retries=4) as api, pytest.raises(meridian.InternalServerError):
            api.run(api.client.me.retrieve(max_retries=0))
    assert len(server.requests) == 1


def test_per_call_timeout(kind: str, project_json: dict[str, Any]) -> None:
    page = {"data": [project_json], "pagination": {"limit": 25, "offset": 0, "total": 1, "hasMore": False}}
    with ScriptedServer([Reply(200, page, delay=0.5)]) as server:
        with server.api(kind, timeout=5.0, max_retries=0) as api:
            with pytest.raises(meridian.APITimeoutError):
                api.run(api.client.projects.list(timeout=0.1))
            # The client's own (longer) timeout still applies to calls without one.
            assert len(api.run(api.client.projects.list()).data) == 1


def test_with_options_copies_the_client(kind: str) -> None:
    with ScriptedServer([Reply(503, None)]) as server, server.api(kind, max_retries=3) as api:
        quick = api.client.with_options(max_retries=0, timeout=1.5, default_headers={"X-Team": "pmo"})
        assert (quick.max_retries, quick.timeout, api.client.max_retries) == (0, 1.5, 3)
        with pytest.raises(meridian.InternalServerError):
            api.run(quick.me.retrieve())
        assert len(server.requests) == 1
        assert server.requests[0].headers["X-Team"] == "pmo"
        assert "X-Team" not in api.client.default_headers
        assert api.client.with_options().timeout == api.client.timeout  # nothing given: nothing changes


def test_extra_headers_per_call(kind: str) -> None:
    with ScriptedServer([Reply(200, {"tenantId": "x"})]) as server, server.api(kind) as api:
        with pytest.raises(meridian.APIResponseValidationError):
            api.run(api.client.tenant.retrieve(extra_headers={"X-Request-Id": "req_mine"}))
    assert server.requests[0].headers["X-Request-Id"] == "req_mine"


def test_backoff_policy() -> None:
    assert [should_retry_status(s) for s in (408, 429, 500, 501, 502, 503, 504, 400, 404, 409, 412)] == [
        True, True, True, False, True, True, True, False, False, False, False,
    ]
    for n, ceiling in [(0, 0.5), (1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0), (10, 8.0)]:
        delay = retry_delay(n)
        assert 0.75 * ceiling <= delay <= ceiling
    assert retry_delay(0, {"Retry-After": "7"}) == 7
    assert retry_delay(0, {"Retry-After": "120"}) <= 0.5  # beyond 60 s: back off instead
    http_date = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + 30))
    assert 28 <= retry_delay(0, {"Retry-After": http_date}) <= 30


def execution(status: str) -> dict[str, Any]:
    done = status in ("COMPLETED", "FAILED")
    return {
        "executionId": "0194f9a2-6a1e-7c3d-9b2a-1f4e5d6c7b8a",
        "agentId": "risk-assessment",
        "scope": "all",
        "depth": "quick",
        "asOf": "2026-06-02",
        "status": status,
        "attempts": 0 if status == "PENDING" else 1,
        "progress": {"percent": 40, "stage": "analysing"} if status == "RUNNING" else None,
        "output": (
            {
                "asOf": "2026-06-02",
                "summary": "2 high risks",
                "findings": [],
                "metrics": {"openRisks": 2},
                "citations": [],
                "engine": "embedded",
            }
            if status == "COMPLETED"
            else None
        ),
        "error": None,
        "createdAt": "2026-06-02T14:30:00Z",
        "startedAt": None if status == "PENDING" else "2026-06-02T14:30:00.120Z",
        "completedAt": "2026-06-02T14:30:01.480Z" if done else None,
        "updatedAt": "2026-06-02T14:30:01.480Z",
    }


def test_poll_until_completed(kind: str) -> None:
    script = [Reply(200, execution("PENDING")), Reply(200, execution("RUNNING")), Reply(200, execution("COMPLETED"))]
    with ScriptedServer(script) as server, server.api(kind) as api:
        result = api.run(api.client.agents.executions.poll("0194f9a2-6a1e-7c3d-9b2a-1f4e5d6c7b8a", poll_interval=0.05))
    assert result.status == ExecutionStatus.COMPLETED
    assert result.output is not None and result.output.metrics == {"openRisks": 2}
    assert [r.path for r in server.requests] == ["/v1/agents/executions/0194f9a2-6a1e-7c3d-9b2a-1f4e5d6c7b8a"] * 3
    assert all(r.method == "GET" for r in server.requests)


def test_poll_times_out(kind: str) -> None:
    with ScriptedServer([Reply(200, execution("RUNNING"))]) as server, server.api(kind) as api:
        started = time.monotonic()
        with pytest.raises(meridian.APITimeoutError, match="RUNNING"):
            api.run(api.client.agents.executions.poll("0194f9a2-6a1e-7c3d-9b2a-1f4e5d6c7b8a", poll_interval=0.05, timeout=0.3))
        assert time.monotonic() - started < 1.5
    assert len(server.requests) >= 3

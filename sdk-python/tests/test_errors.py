"""Every error class: from the live server where it can produce the status, else from a real local server."""

from __future__ import annotations

import datetime as dt
import socket
import time
import uuid

import pytest

import meridian
from conftest import Reply, ScriptedServer, problem, unique
from meridian.models import ProjectCreate, ProjectStatus, ProjectUpdate
from test_projects import new_project


def assert_problem(error: meridian.MeridianError, status: int, code: str) -> None:
    assert error.status == status
    assert error.code == code
    assert error.title
    assert error.request_id and error.request_id.startswith("req_")
    assert error.headers.get("X-Request-Id") == error.request_id
    assert isinstance(error.body, dict) and error.body["code"] == code
    assert error.request_id in str(error)


def test_400_unknown_body_field(client: meridian.Meridian, base_url: str) -> None:
    # The generated models drop unknown fields, so send the raw body through the same (retrying, mapping) client.
    with pytest.raises(meridian.BadRequestError) as caught:
        client.api_client.call_api(
            "POST",
            f"{base_url}/projects",
            header_params={"Content-Type": "application/json", "Authorization": f"Bearer {client.api_key}"},
            body={"name": "x", "startDate": "2026-01-01", "endDate": "2026-02-01", "colour": "red"},
        )
    assert_problem(caught.value, 400, "validation_failed")
    assert any("colour" in (e.get("path", "") + e.get("message", "")) for e in caught.value.errors)


def test_401_bad_key(base_url: str) -> None:
    bad = meridian.Meridian(api_key="mk_live_" + "x" * 40, base_url=base_url)
    with pytest.raises(meridian.AuthenticationError) as caught:
        bad.identity.get_me()
    assert_problem(caught.value, 401, "unauthenticated")
    assert caught.value.headers.get("WWW-Authenticate", "").startswith("Bearer")


def test_403_read_key_cannot_write(read_client: meridian.Meridian) -> None:
    assert read_client.identity.get_me().api_key.scopes == ["read"]
    with pytest.raises(meridian.PermissionDeniedError) as caught:
        read_client.projects.create_project(
            ProjectCreate(name="nope", start_date=dt.date(2026, 1, 1), end_date=dt.date(2026, 2, 1))
        )
    assert_problem(caught.value, 403, "forbidden")


def test_404_unknown_project(client: meridian.Meridian) -> None:
    with pytest.raises(meridian.NotFoundError) as caught:
        client.projects.get_project(uuid.uuid4())
    assert_problem(caught.value, 404, "not_found")


def test_409_invalid_transition(client: meridian.Meridian) -> None:
    project = new_project(client)
    client.projects.update_project(project.id, ProjectUpdate(status=ProjectStatus.CANCELLED))
    with pytest.raises(meridian.ConflictError) as caught:
        client.projects.update_project(project.id, ProjectUpdate(status=ProjectStatus.ON_TRACK))
    assert_problem(caught.value, 409, "invalid_transition")


def test_409_duplicate_code(client: meridian.Meridian) -> None:
    project = new_project(client)
    with pytest.raises(meridian.ConflictError) as caught:
        new_project(client, code=project.code)
    assert_problem(caught.value, 409, "conflict")


def test_412_stale_if_match(client: meridian.Meridian) -> None:
    project = new_project(client)
    client.projects.update_project(project.id, ProjectUpdate(progress=5))  # version 2 now
    with pytest.raises(meridian.PreconditionFailedError) as caught:
        client.projects.update_project(project.id, ProjectUpdate(progress=6), if_match='"1"')
    assert_problem(caught.value, 412, "precondition_failed")
    assert client.projects.get_project(project.id).progress == 5  # nothing written


def test_422_end_before_start(client: meridian.Meridian) -> None:
    with pytest.raises(meridian.UnprocessableEntityError) as caught:
        client.projects.create_project(
            ProjectCreate(name=unique("Backwards"), start_date=dt.date(2026, 6, 1), end_date=dt.date(2026, 5, 1))
        )
    assert_problem(caught.value, 422, "validation_failed")


def test_429_rate_limited_tenant(base_url: str, tiny_key: str) -> None:
    tiny = meridian.Meridian(api_key=tiny_key, base_url=base_url, max_retries=0)
    with pytest.raises(meridian.RateLimitError) as caught:
        for _ in range(5):  # the tenant allows 2 requests per minute
            tiny.identity.get_tenant()
    assert_problem(caught.value, 429, "rate_limited")
    assert caught.value.retry_after is not None and 0 < caught.value.retry_after <= 60


def test_500_internal_server_error_is_retried_then_raised() -> None:
    with ScriptedServer([Reply(500, problem(500, "internal_error", "Internal error"))]) as server:
        with pytest.raises(meridian.InternalServerError) as caught:
            server.client(max_retries=1).identity.get_me()
    assert caught.value.status == 500
    assert caught.value.code == "internal_error"
    assert caught.value.request_id == "req_problem_internal_error"
    assert len(server.requests) == 2


def test_501_not_implemented_is_not_retried() -> None:
    with ScriptedServer([Reply(501, problem(501, "not_implemented", "Not implemented"))]) as server:
        with pytest.raises(meridian.InternalServerError) as caught:
            server.client().identity.get_me()
    assert caught.value.status == 501
    assert len(server.requests) == 1


def test_other_statuses_raise_api_status_error() -> None:
    with ScriptedServer([Reply(415, problem(415, "unsupported_media_type"))]) as server:
        with pytest.raises(meridian.APIStatusError) as caught:
            server.client().identity.get_me()
    assert type(caught.value) is meridian.APIStatusError
    assert caught.value.status == 415


def test_non_json_error_body_keeps_text_and_header_request_id() -> None:
    with ScriptedServer([Reply(404, None)]) as server:
        with pytest.raises(meridian.NotFoundError) as caught:
            server.client().identity.get_me()
    assert caught.value.code is None
    assert caught.value.request_id == "req_local_1"


def test_timeout_is_retried_then_raised() -> None:
    with ScriptedServer([Reply(200, {}, delay=1.0)]) as server:
        started = time.monotonic()
        with pytest.raises(meridian.APITimeoutError):
            server.client(timeout=0.2, max_retries=1).identity.get_me()
        assert time.monotonic() - started < 3
    assert len(server.requests) == 2
    assert isinstance(meridian.APITimeoutError("x"), meridian.APIConnectionError)


def test_connection_refused_raises_connection_error() -> None:
    with socket.socket() as sock:  # a port that nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    client = meridian.Meridian(api_key="mk_live_x", base_url=f"http://127.0.0.1:{port}/v1", max_retries=1)
    started = time.monotonic()
    with pytest.raises(meridian.APIConnectionError) as caught:
        client.identity.get_me()
    assert not isinstance(caught.value, meridian.APITimeoutError)
    assert caught.value.status is None
    assert time.monotonic() - started >= 0.3  # one backoff (0.5 s minus jitter) between the two attempts


def test_missing_api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MERIDIAN_API_KEY", raising=False)
    with pytest.raises(meridian.MeridianError, match="MERIDIAN_API_KEY"):
        meridian.Meridian()


def test_environment_configures_the_client(monkeypatch: pytest.MonkeyPatch, base_url: str, api_key: str) -> None:
    monkeypatch.setenv("MERIDIAN_API_KEY", api_key)
    monkeypatch.setenv("MERIDIAN_BASE_URL", base_url)
    client = meridian.Meridian()
    assert client.base_url == base_url
    assert client.identity.get_me().tenant.name == "NYC Capital Projects (demo)"
    monkeypatch.delenv("MERIDIAN_BASE_URL")
    assert meridian.Meridian().base_url == meridian.DEFAULT_BASE_URL

"""Every error class, with both clients: from the live server where it can produce the status, else from a real local
server; and the client-side validation error, which no request is sent for."""

from __future__ import annotations

import datetime as dt
import socket
import time
import uuid

import pydantic
import pytest

import meridian
from conftest import Api, Reply, ScriptedServer, new_project, problem, unique
from meridian.models import ProjectCreate, ProjectStatus, ProjectUpdate


def assert_problem(error: meridian.MeridianError, status: int, code: str) -> None:
    assert error.status == status
    assert error.code == code
    assert error.title
    assert error.request_id and error.request_id.startswith("req_")
    assert error.headers.get("X-Request-Id") == error.request_id
    assert isinstance(error.body, dict) and error.body["code"] == code
    assert error.request_id in str(error)


def test_400_from_the_server(api: Api) -> None:
    # model_construct skips the model's own validation, so the server is the one that rejects the budget.
    body = ProjectCreate.model_construct(
        name="x", start_date=dt.date(2026, 1, 1), end_date=dt.date(2026, 2, 1), budget=-5
    )
    with pytest.raises(meridian.BadRequestError) as caught:
        api.run(api.client.projects.create(body))
    assert_problem(caught.value, 400, "validation_failed")
    assert any("budget" in (e.get("path", "") + e.get("message", "")) for e in caught.value.errors)


@pytest.mark.parametrize(
    ("call", "location", "path"),
    [
        (lambda c: c.projects.retrieve("not-a-uuid"), "path", "id"),
        (lambda c: c.projects.list(limit=500), "query", "limit"),
        (lambda c: c.projects.list(limit="10"), "query", "limit"),
        (lambda c: c.risks.list(severity=["SEVERE"]), "query", "severity"),
        (lambda c: c.audit_logs.list(action="x" * 101), "query", "action"),
        (lambda c: c.projects.update(uuid.uuid4(), ProjectUpdate(), if_match=""), "header", "If-Match"),
        (lambda c: c.projects.create({"name": "no dates"}), "body", "startDate"),
        (lambda c: c.projects.create(ProjectUpdate()), "body", ""),
        (lambda c: c.projects.create(ProjectCreate.model_construct(), name="twice"), "body", ""),
        (lambda c: c.risks.create(title="t", project_id="not-a-uuid", likelihood=3, impact=3), "body", "project_id"),
    ],
    ids=["uuid", "limit-max", "limit-type", "enum", "max-length", "header", "dict-body", "wrong-model", "two-bodies",
         "field"],
)
def test_client_side_validation_raises_a_meridian_error(kind: str, call: object, location: str, path: str) -> None:
    with ScriptedServer([Reply(200, {})]) as server, server.api(kind) as api:
        with pytest.raises(meridian.MeridianError) as caught:
            api.run(call(api.client))  # type: ignore[operator]
    error = caught.value
    assert isinstance(error, meridian.RequestValidationError) and isinstance(error, ValueError)
    assert error.status is None
    assert error.errors and error.errors[0]["location"] == location
    assert path in error.errors[0]["path"]
    assert server.requests == []  # nothing was sent
    if location != "body" or path:
        assert isinstance(error.__cause__, pydantic.ValidationError)


def test_401_bad_key(kind: str, base_url: str) -> None:
    with Api(kind, api_key="mk_live_" + "x" * 40, base_url=base_url) as bad:
        with pytest.raises(meridian.AuthenticationError) as caught:
            bad.run(bad.client.me.retrieve())
    assert_problem(caught.value, 401, "unauthenticated")
    assert caught.value.headers.get("WWW-Authenticate", "").startswith("Bearer")


def test_403_read_key_cannot_write(read_api: Api) -> None:
    assert read_api.run(read_api.client.me.retrieve()).api_key.scopes == ["read"]
    with pytest.raises(meridian.PermissionDeniedError) as caught:
        read_api.run(
            read_api.client.projects.create(
                ProjectCreate(name="nope", start_date=dt.date(2026, 1, 1), end_date=dt.date(2026, 2, 1))
            )
        )
    assert_problem(caught.value, 403, "forbidden")


def test_404_unknown_project(api: Api) -> None:
    with pytest.raises(meridian.NotFoundError) as caught:
        api.run(api.client.projects.retrieve(uuid.uuid4()))
    assert_problem(caught.value, 404, "not_found")


def test_409_invalid_transition(api: Api) -> None:
    project = new_project(api)
    api.run(api.client.projects.update(project.id, ProjectUpdate(status=ProjectStatus.CANCELLED)))
    with pytest.raises(meridian.ConflictError) as caught:
        api.run(api.client.projects.update(project.id, ProjectUpdate(status=ProjectStatus.ON_TRACK)))
    assert_problem(caught.value, 409, "invalid_transition")


def test_409_duplicate_code(api: Api) -> None:
    project = new_project(api)
    with pytest.raises(meridian.ConflictError) as caught:
        new_project(api, code=project.code)
    assert_problem(caught.value, 409, "conflict")


def test_412_stale_if_match(api: Api) -> None:
    project = new_project(api)
    api.run(api.client.projects.update(project.id, ProjectUpdate(progress=5)))  # version 2 now
    with pytest.raises(meridian.PreconditionFailedError) as caught:
        api.run(api.client.projects.update(project.id, ProjectUpdate(progress=6), if_match='"1"'))
    assert_problem(caught.value, 412, "precondition_failed")
    assert api.run(api.client.projects.retrieve(project.id)).progress == 5  # nothing written


def test_422_end_before_start(api: Api) -> None:
    with pytest.raises(meridian.UnprocessableEntityError) as caught:
        api.run(
            api.client.projects.create(
                ProjectCreate(name=unique("Backwards"), start_date=dt.date(2026, 6, 1), end_date=dt.date(2026, 5, 1))
            )
        )
    assert_problem(caught.value, 422, "validation_failed")


def test_429_rate_limited_tenant(kind: str, base_url: str, tiny_key: str) -> None:
    # The tiny tenant allows 2 requests per minute; each parametrisation spends its own five attempts.
    with Api(kind, api_key=tiny_key, base_url=base_url, max_retries=0) as tiny:
        with pytest.raises(meridian.RateLimitError) as caught:
            for _ in range(5):
                tiny.run(tiny.client.tenant.retrieve())
    assert_problem(caught.value, 429, "rate_limited")
    assert caught.value.retry_after is not None and 0 < caught.value.retry_after <= 60


def test_500_internal_server_error_is_retried_then_raised(kind: str) -> None:
    with ScriptedServer([Reply(500, problem(500, "internal_error", "Internal error"))]) as server:
        with server.api(kind, max_retries=1) as api, pytest.raises(meridian.InternalServerError) as caught:
            api.run(api.client.me.retrieve())
    assert caught.value.status == 500
    assert caught.value.code == "internal_error"
    assert caught.value.request_id == "req_problem_internal_error"
    assert len(server.requests) == 2


def test_501_not_implemented_is_not_retried(kind: str) -> None:
    with ScriptedServer([Reply(501, problem(501, "not_implemented", "Not implemented"))]) as server:
        with server.api(kind) as api, pytest.raises(meridian.InternalServerError) as caught:
            api.run(api.client.me.retrieve())
    assert caught.value.status == 501
    assert len(server.requests) == 1


def test_other_statuses_raise_api_status_error(kind: str) -> None:
    with ScriptedServer([Reply(415, problem(415, "unsupported_media_type"))]) as server:
        with server.api(kind) as api, pytest.raises(meridian.APIStatusError) as caught:
            api.run(api.client.me.retrieve())
    assert type(caught.value) is meridian.APIStatusError
    assert caught.value.status == 415


def test_non_json_error_body_keeps_text_and_header_request_id(kind: str) -> None:
    with ScriptedServer([Reply(404, None)]) as server:
        with server.api(kind) as api, pytest.raises(meridian.NotFoundError) as caught:
            api.run(api.client.me.retrieve())
    assert caught.value.code is None
    assert caught.value.request_id == "req_local_1"


def test_a_2xx_body_of_the_wrong_shape_raises_a_meridian_error(kind: str) -> None:
    with ScriptedServer([Reply(200, {"unexpected": True})]) as server:
        with server.api(kind) as api, pytest.raises(meridian.APIResponseValidationError) as caught:
            api.run(api.client.tenant.retrieve())
    assert caught.value.status == 200
    assert caught.value.request_id == "req_local_1"


def test_timeout_is_retried_then_raised(kind: str) -> None:
    with ScriptedServer([Reply(200, {}, delay=1.0)]) as server:
        started = time.monotonic()
        with server.api(kind, timeout=0.2, max_retries=1) as api, pytest.raises(meridian.APITimeoutError):
            api.run(api.client.me.retrieve())
        assert time.monotonic() - started < 3
    assert len(server.requests) == 2
    assert isinstance(meridian.APITimeoutError("x"), meridian.APIConnectionError)


def test_connection_refused_raises_connection_error(kind: str) -> None:
    with socket.socket() as sock:  # a port that nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with Api(kind, api_key="mk_live_x", base_url=f"http://127.0.0.1:{port}/v1", max_retries=1) as api:
        started = time.monotonic()
        with pytest.raises(meridian.APIConnectionError) as caught:
            api.run(api.client.me.retrieve())
        assert time.monotonic() - started >= 0.3  # one backoff (0.5 s minus jitter) between the two attempts
    assert not isinstance(caught.value, meridian.APITimeoutError)
    assert caught.value.status is None


def test_missing_api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MERIDIAN_API_KEY", raising=False)
    with pytest.raises(meridian.MeridianError, match="MERIDIAN_API_KEY"):
        meridian.Meridian()
    with pytest.raises(meridian.MeridianError, match="MERIDIAN_API_KEY"):
        meridian.AsyncMeridian()


def test_environment_configures_the_client(
    kind: str, monkeypatch: pytest.MonkeyPatch, base_url: str, api_key: str
) -> None:
    monkeypatch.setenv("MERIDIAN_API_KEY", api_key)
    monkeypatch.setenv("MERIDIAN_BASE_URL", base_url)
    with Api(kind) as api:
        assert api.client.base_url == base_url
        assert api.run(api.client.me.retrieve()).tenant.name == "NYC Capital Projects (demo)"
    monkeypatch.delenv("MERIDIAN_BASE_URL")
    with Api(kind) as api:
        assert api.client.base_url == meridian.DEFAULT_BASE_URL

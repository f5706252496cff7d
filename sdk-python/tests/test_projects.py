"""Projects against the live server: CRUD, filters, pagination, ETags and idempotent replays."""

from __future__ import annotations

import datetime as dt
import uuid

import meridian
from conftest import unique
from meridian.models import ProjectCreate, ProjectStatus, ProjectUpdate


def new_project(client: meridian.Meridian, **fields: object) -> meridian.models.Project:
    values: dict[str, object] = {
        "name": unique("SDK project"),
        "code": unique("PY"),
        "start_date": dt.date(2026, 1, 5),
        "end_date": dt.date(2026, 12, 18),
        "budget": 250_000,
        "tags": ["sdk", "python"],
    }
    values.update(fields)
    return client.projects.create_project(ProjectCreate(**values))  # type: ignore[arg-type]


def test_create_get_update_project(client: meridian.Meridian) -> None:
    created = new_project(client, description="made by the Python SDK tests")
    assert created.status == ProjectStatus.PLANNED
    assert created.currency == "USD"
    assert created.version == 1

    detail = client.projects.get_project(created.id)
    assert detail.name == created.name
    assert detail.budget_summary.budget == 250_000
    assert detail.milestones == []

    updated = client.projects.update_project(
        created.id, ProjectUpdate(status=ProjectStatus.AT_RISK, progress=40, actual_cost=1_000.5)
    )
    assert updated.status == ProjectStatus.AT_RISK
    assert updated.progress == 40
    assert updated.actual_cost == 1_000.5
    assert updated.version == 2
    assert updated.name == created.name  # absent fields keep their values


def test_update_with_if_match_uses_the_etag(client: meridian.Meridian) -> None:
    created = new_project(client)
    fetched = client.projects.get_project_with_http_info(created.id)
    etag = fetched.headers["ETag"]
    assert fetched.headers["X-Request-Id"].startswith("req_")
    answer = client.projects.update_project_with_http_info(created.id, ProjectUpdate(progress=10), if_match=etag)
    assert answer.status_code == 200
    assert answer.data.progress == 10
    assert answer.headers["ETag"] != etag


def test_list_filters_at_risk_on_the_nyc_data(client: meridian.Meridian) -> None:
    page = client.projects.list_projects(status=ProjectStatus.AT_RISK, limit=100)
    assert page.pagination.total > 0
    assert all(p.status == ProjectStatus.AT_RISK for p in page.data)
    assert any(p.code and p.code.startswith("NYC-") for p in page.data)


def test_paginate_walks_every_page(client: meridian.Meridian) -> None:
    first = client.projects.list_projects(status=ProjectStatus.AT_RISK, limit=5)
    total = first.pagination.total
    assert total > 10, "the NYC demo should have more AT_RISK projects than two pages of 5"
    items = list(client.paginate(client.projects.list_projects, status=ProjectStatus.AT_RISK, limit=5))
    assert len(items) == total
    assert len({p.id for p in items}) == total
    assert [p.id for p in items[:5]] == [p.id for p in first.data]
    # The module-level function is the same walk; `offset` starts it further in.
    rest = list(meridian.paginate(client.projects.list_projects, status=ProjectStatus.AT_RISK, limit=5, offset=5))
    assert [p.id for p in rest] == [p.id for p in items[5:]]


def test_post_replay_with_the_same_idempotency_key(client: meridian.Meridian) -> None:
    key = str(uuid.uuid4())
    body = ProjectCreate(
        name=unique("Replay"), start_date=dt.date(2026, 2, 1), end_date=dt.date(2026, 3, 1), code=unique("RP")
    )
    first = client.projects.create_project_with_http_info(body, idempotency_key=key)
    again = client.projects.create_project_with_http_info(body, idempotency_key=key)
    assert first.status_code == again.status_code == 201
    assert again.data.id == first.data.id
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert first.headers.get("Idempotent-Replayed") is None

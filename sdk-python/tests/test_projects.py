"""Projects against the live server, with both clients: CRUD, filters, pagination, ETags, request ids and idempotent
replays."""

from __future__ import annotations

import datetime as dt
import uuid

import meridian
from conftest import Api, new_project, unique
from meridian.models import ProjectCreate, ProjectSort, ProjectStatus, ProjectUpdate, RiskCreate


def test_create_get_update_project(api: Api) -> None:
    created = new_project(api, description="made by the Python SDK tests")
    assert created.status == ProjectStatus.PLANNED
    assert created.currency == "USD"
    assert created.version == 1

    detail = api.run(api.client.projects.retrieve(created.id))
    assert detail.name == created.name
    assert detail.budget_summary.budget == 250_000
    assert detail.milestones == []
    # A path id may be given as text, as it comes from JSON or a command line.
    assert api.run(api.client.projects.retrieve(str(created.id))).id == created.id

    # The body as keyword arguments (a model or a dict works too: see test_update_with_if_match_uses_the_etag).
    updated = api.run(
        api.client.projects.update(created.id, status=ProjectStatus.AT_RISK, progress=40, actual_cost=1_000.5)
    )
    assert updated.status == ProjectStatus.AT_RISK
    assert updated.progress == 40
    assert updated.actual_cost == 1_000.5
    assert updated.version == 2
    assert updated.name == created.name  # absent fields keep their values


def test_update_with_if_match_uses_the_etag(api: Api) -> None:
    created = new_project(api)
    fetched = api.run(api.client.projects.with_raw_response.retrieve(created.id))
    etag = fetched.headers["ETag"]
    assert fetched.etag == etag
    assert fetched.status_code == 200
    assert fetched.data.id == created.id
    answer = api.run(
        api.client.projects.with_raw_response.update(created.id, ProjectUpdate(progress=10), if_match=etag)
    )
    assert answer.status_code == 200
    assert answer.data.progress == 10 and answer.parse() is answer.data
    assert answer.headers["ETag"] != etag
    as_dict = api.run(api.client.projects.with_raw_response.update(created.id, {"progress": 11}, if_match=answer.etag))
    assert as_dict.data.progress == 11
    # If-None-Match with the current ETag: 304, raised as an APIStatusError (as the TypeScript SDK does).
    try:
        api.run(api.client.projects.retrieve(created.id, if_none_match=as_dict.etag))
    except meridian.APIStatusError as error:
        assert error.status == 304
    else:
        raise AssertionError("expected 304 Not Modified")


def test_request_id_on_successful_results(api: Api) -> None:
    answer = api.run(api.client.me.with_raw_response.retrieve())
    assert answer.request_id and answer.request_id.startswith("req_")
    assert answer.request_id == answer.headers["X-Request-Id"]
    mine = api.run(api.client.me.with_raw_response.retrieve(extra_headers={"X-Request-Id": "req_python_sdk_test_1"}))
    assert mine.request_id == "req_python_sdk_test_1"


def test_list_filters_at_risk_on_the_nyc_data(api: Api) -> None:
    page = api.run(api.client.projects.list(status=[ProjectStatus.AT_RISK], limit=100))
    assert page.pagination.total > 0
    assert all(p.status == ProjectStatus.AT_RISK for p in page.data)
    assert any(p.code and p.code.startswith("NYC-") for p in page.data)
    # The enum's value is accepted as text too (typed as a Literal of the values).
    again = api.run(api.client.projects.list(status=["AT_RISK"], limit=100))
    assert [p.id for p in again.data] == [p.id for p in page.data]


def test_list_filters_by_several_statuses(api: Api) -> None:
    # The parameter repeated (status=AT_RISK&status=OFF_TRACK): a project with any of the statuses (OR).
    at_risk = api.run(api.client.projects.list(status=[ProjectStatus.AT_RISK], limit=1)).pagination.total
    off_track = api.run(api.client.projects.list(status=["OFF_TRACK"], limit=1)).pagination.total
    both = api.run(api.client.projects.list(status=[ProjectStatus.AT_RISK, "OFF_TRACK"], limit=100))
    assert both.pagination.total == at_risk + off_track
    assert {p.status for p in both.data} <= {ProjectStatus.AT_RISK, ProjectStatus.OFF_TRACK}
    assert len(both.data) == min(100, at_risk + off_track)
    # One value needs no list.
    assert api.run(api.client.projects.list(status="AT_RISK", limit=1)).pagination.total == at_risk


def test_list_retrieves_many_projects_by_id(api: Api) -> None:
    # The parameter repeated (id=…&id=…, up to 100): those projects in the list's order; unknown ids are absent.
    first, second = new_project(api), new_project(api)
    page = api.run(api.client.projects.list(id=[second.id, str(uuid.uuid4()), first.id]))
    assert [p.id for p in page.data] == [first.id, second.id]
    assert page.pagination.total == 2


def test_a_list_iterates_every_page(api: Api) -> None:
    first = api.run(api.client.projects.list(status=[ProjectStatus.AT_RISK], limit=5))
    total = first.pagination.total
    assert total > 10, "the NYC demo should have more AT_RISK projects than two pages of 5"
    items = api.collect(api.client.projects.list(status=[ProjectStatus.AT_RISK], limit=5))
    assert len(items) == total
    assert len({p.id for p in items}) == total
    assert [p.id for p in items[:5]] == [p.id for p in first.data]
    # `offset` starts the walk further in.
    rest = api.collect(api.client.projects.list(status=[ProjectStatus.AT_RISK], limit=5, offset=5))
    assert [p.id for p in rest] == [p.id for p in items[5:]]
    # Page by page: has_next_page() and get_next_page().
    page, pages = first, [first]
    while page.has_next_page():
        page = api.run(page.get_next_page())
        pages.append(page)
    assert [p.id for one in pages for p in one.data] == [p.id for p in items]
    assert len(pages) == (total + 4) // 5


def test_a_nested_list_takes_its_parent_id(api: Api) -> None:
    project = new_project(api)
    for day in (10, 11, 12):
        api.run(api.client.projects.milestones.create(project.id, name=f"M{day}", due_date=dt.date(2026, 3, day)))
    names = [m.name for m in api.collect(api.client.projects.milestones.list(project.id, limit=2))]
    assert names == ["M10", "M11", "M12"]


def test_post_replay_with_the_same_idempotency_key(api: Api) -> None:
    key = str(uuid.uuid4())
    body = ProjectCreate(
        name=unique("Replay"), start_date=dt.date(2026, 2, 1), end_date=dt.date(2026, 3, 1), code=unique("RP")
    )
    first = api.run(api.client.projects.with_raw_response.create(body, idempotency_key=key))
    again = api.run(api.client.projects.with_raw_response.create(body, idempotency_key=key))
    assert first.status_code == again.status_code == 201
    assert again.data.id == first.data.id
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert first.headers.get("Idempotent-Replayed") is None
    assert first.request_id != again.request_id


def test_delete_returns_none(api: Api) -> None:
    from meridian.models import MilestoneCreate

    project = new_project(api)
    milestone = api.run(
        api.client.projects.milestones.create(project.id, MilestoneCreate(name="Gone", due_date=dt.date(2026, 4, 1)))
    )
    answer = api.run(api.client.projects.milestones.with_raw_response.delete(milestone.id))
    assert answer.status_code == 204 and answer.data is None
    try:
        api.run(api.client.projects.milestones.retrieve(milestone.id))
    except meridian.NotFoundError:
        pass
    else:
        raise AssertionError("the milestone is still there")


def test_search_tag_and_sort_reach_the_api(api: Api) -> None:
    """``q``, ``tag`` and ``sort`` are typed parameters of ``projects.list``; the enum
    and its plain string values both work; a sort field the spec does not list is refused by the SDK (pydantic) before
    anything is sent."""
    marker = unique("Tunnelworks")  # unique to this test run, so the shared demo tenant's projects never match
    small = new_project(api, name=f"{marker} Gowanus", budget=2_000_000, tags=[marker])
    large = new_project(api, name=f"{marker} newtown creek", budget=9_000_000, tags=[marker.upper()])
    new_project(api, name=f"{marker} unbudgeted", budget=None)

    page = api.run(api.client.projects.list(q=marker.lower(), sort=ProjectSort.MINUS_BUDGET))
    assert [p.name for p in page.data] == [large.name, small.name, f"{marker} unbudgeted"]  # unknown budget last
    assert page.pagination.total == 3

    by_name = api.collect(api.client.projects.list(tag=marker.lower(), sort="name", limit=1))
    assert [p.id for p in by_name] == [small.id, large.id]

    risks = [
        api.run(api.client.risks.create(RiskCreate(title=t, project_id=small.id, likelihood=lk, impact=im)))
        for t, lk, im in (("low", 1, 2), ("high", 5, 4), ("medium", 3, 3))
    ]
    ordered = api.collect(api.client.risks.list(project_id=small.id, sort="-score"))
    assert [r.id for r in ordered] == [risks[1].id, risks[2].id, risks[0].id]

    try:
        api.run(api.client.projects.list(sort="-progress"))  # type: ignore[arg-type]
    except meridian.MeridianError as error:
        assert "sort" in str(error)
    else:
        raise AssertionError("expected the SDK to refuse an unknown sort field")

"""Status reports against the live server (the NYC demo tenant), with both clients: submit (the newest moves its
project), a project's history newest first, the portfolio list, and the imported history with unknown values null.
The root README's Python example runs in test_typing.py."""

from __future__ import annotations

import datetime as dt

from conftest import Api, new_project
from meridian.models import ProjectStatus, StatusReportCreate


def test_submit_moves_the_project_and_lists_newest_first(api: Api) -> None:
    project = new_project(api, budget=1_000_000)
    reports = api.client.projects.status_reports
    older = api.run(reports.create(project.id, as_of=dt.date(2025, 3, 1), status=ProjectStatus.ON_TRACK, progress=10))
    newest = api.run(
        reports.create(
            project.id,
            StatusReportCreate(
                as_of=dt.date(2025, 6, 1),
                status=ProjectStatus.AT_RISK,
                forecast_cost=1_100_000,
                actual_cost=400_000,
                progress=35,
                summary="Bearings late.",
            ),
        )
    )
    assert newest.applied and newest.cost_variance == -100_000 and newest.source == "api"
    backdated = api.run(reports.create(project.id, {"as_of": "2025-04-01", "status": "OFF_TRACK"}))
    assert backdated.applied is False

    moved = api.run(api.client.projects.retrieve(project.id))
    assert moved.status == ProjectStatus.AT_RISK
    assert (moved.actual_cost, moved.progress, moved.forecast_cost) == (400_000, 35, 1_100_000)
    assert moved.budget_summary.percent_spent == 40

    page = api.run(reports.list(project.id))
    assert [r.id for r in page.data] == [newest.id, backdated.id, older.id]
    assert api.run(api.client.status_reports.retrieve(older.id)).progress == 10
    since = api.collect(api.client.status_reports.list(project_id=project.id, since="2025-04-01"))
    assert [r.as_of for r in since] == [dt.date(2025, 6, 1), dt.date(2025, 4, 1)]


def test_imported_history_keeps_unknown_values_null(api: Api) -> None:
    projects = api.run(api.client.projects.list(managing_agency="DEP", borough="Brooklyn", limit=5)).data
    imported = [p for p in projects if p.code and p.code.startswith("NYC-")]
    assert imported and all(p.managing_agency == "DEP" for p in imported)
    assert all(p.actual_cost is None and p.progress is None for p in imported)
    history = api.run(api.client.projects.status_reports.list(imported[0].id, limit=100)).data
    assert history and all(r.source.startswith("import:nyc-capital-projects") for r in history)
    assert [r.as_of for r in history] == sorted((r.as_of for r in history), reverse=True)

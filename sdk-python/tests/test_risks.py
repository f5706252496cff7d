"""Risks against the live server, with both clients: CRUD, derived severity, filters by projectId and severity."""

from __future__ import annotations

from typing import Any

from conftest import Api, new_project
from meridian.models import Risk, RiskSeverity, RiskStatus, RiskUpdate


def new_risk(api: Api, project_id: Any, likelihood: int, impact: int, **fields: Any) -> Risk:
    risk: Risk = api.run(
        api.client.risks.create(
            title=f"Risk {likelihood}x{impact}", project_id=project_id, likelihood=likelihood, impact=impact, **fields
        )
    )
    return risk


def test_create_get_update_risk(api: Api) -> None:
    project = new_project(api)
    risk = new_risk(api, project.id, 4, 3, mitigation="Second supplier")
    assert risk.score == 12
    assert risk.severity == RiskSeverity.HIGH  # 10–16 is HIGH (spec: RiskSeverity)
    assert risk.status == RiskStatus.OPEN
    assert api.run(api.client.risks.retrieve(risk.id)).title == "Risk 4x3"

    escalated = api.run(api.client.risks.update(risk.id, RiskUpdate(likelihood=5, impact=5)))
    # An id as text; a PATCH with keyword arguments sends only those (None sends null: back to derived severity).
    assert escalated.score == 25
    assert escalated.severity == RiskSeverity.CRITICAL

    manual = api.run(
        api.client.risks.update(risk.id, RiskUpdate(severity=RiskSeverity.LOW, status=RiskStatus.MITIGATING))
    )
    assert manual.severity == RiskSeverity.LOW
    assert manual.status == RiskStatus.MITIGATING
    derived = api.run(api.client.risks.update(str(risk.id), severity=None))
    assert derived.severity == RiskSeverity.CRITICAL and derived.status == RiskStatus.MITIGATING


def test_filters_by_project_and_severity(api: Api) -> None:
    project = new_project(api)
    other = new_project(api)
    low = new_risk(api, project.id, 1, 2)
    high = new_risk(api, project.id, 4, 4)
    new_risk(api, other.id, 5, 5)

    of_project = api.run(api.client.risks.list(project_id=project.id))
    assert {r.id for r in of_project.data} == {low.id, high.id}
    assert of_project.pagination.total == 2

    high_of_project = api.run(api.client.risks.list(project_id=project.id, severity=[RiskSeverity.HIGH]))
    assert [r.id for r in high_of_project.data] == [high.id]

    critical = api.collect(api.client.risks.list(severity=["CRITICAL"]))
    assert critical and all(r.severity == RiskSeverity.CRITICAL for r in critical)


def test_risks_iterate_across_pages(api: Api) -> None:
    project = new_project(api)
    made = [new_risk(api, project.id, 1 + i % 5, 1 + (i * 2) % 5) for i in range(7)]
    seen = api.collect(api.client.risks.list(project_id=project.id, limit=3))
    assert [r.id for r in seen] == [r.id for r in made]  # createdAt order, three pages

"""Risks against the live server: CRUD, derived severity, filters by projectId and severity."""

from __future__ import annotations

import meridian
from meridian.models import Risk, RiskCreate, RiskSeverity, RiskStatus, RiskUpdate
from test_projects import new_project


def new_risk(client: meridian.Meridian, project_id: object, likelihood: int, impact: int, **fields: object) -> Risk:
    return client.risks.create_risk(
        RiskCreate(title=f"Risk {likelihood}x{impact}", project_id=project_id, likelihood=likelihood, impact=impact, **fields)
    )


def test_create_get_update_risk(client: meridian.Meridian) -> None:
    project = new_project(client)
    risk = new_risk(client, project.id, 4, 3, mitigation="Second supplier")
    assert risk.score == 12
    assert risk.severity == RiskSeverity.HIGH  # 10–16 is HIGH (spec: RiskSeverity)
    assert risk.status == RiskStatus.OPEN
    assert client.risks.get_risk(risk.id).title == "Risk 4x3"

    escalated = client.risks.update_risk(risk.id, RiskUpdate(likelihood=5, impact=5))
    assert escalated.score == 25
    assert escalated.severity == RiskSeverity.CRITICAL

    manual = client.risks.update_risk(risk.id, RiskUpdate(severity=RiskSeverity.LOW, status=RiskStatus.MITIGATING))
    assert manual.severity == RiskSeverity.LOW
    assert manual.status == RiskStatus.MITIGATING


def test_filters_by_project_and_severity(client: meridian.Meridian) -> None:
    project = new_project(client)
    other = new_project(client)
    low = new_risk(client, project.id, 1, 2)
    high = new_risk(client, project.id, 4, 4)
    new_risk(client, other.id, 5, 5)

    of_project = client.risks.list_risks(project_id=project.id)
    assert {r.id for r in of_project.data} == {low.id, high.id}
    assert of_project.pagination.total == 2

    high_of_project = client.risks.list_risks(project_id=project.id, severity=RiskSeverity.HIGH)
    assert [r.id for r in high_of_project.data] == [high.id]

    critical = list(client.paginate(client.risks.list_risks, severity=RiskSeverity.CRITICAL))
    assert critical and all(r.severity == RiskSeverity.CRITICAL for r in critical)


def test_paginate_risks_across_pages(client: meridian.Meridian) -> None:
    project = new_project(client)
    made = [new_risk(client, project.id, 1 + i % 5, 1 + (i * 2) % 5) for i in range(7)]
    seen = list(client.paginate(client.risks.list_risks, project_id=project.id, limit=3))
    assert [r.id for r in seen] == [r.id for r in made]  # createdAt order, three pages

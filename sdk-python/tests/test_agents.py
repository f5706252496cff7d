"""Agents against the live server (its job runner runs in process), with both clients: the catalogue, a run polled
with ``agents.executions.poll`` until COMPLETED with its typed output and citations, ``agents.run_and_poll`` with
keyword arguments, the executions list, and a written status report of the NYC demo portfolio whose every sentence
is cited."""

from __future__ import annotations

import datetime as dt
import re

from conftest import Api, new_project
from meridian.models import AgentDepth, AgentId, AgentRunRequest, ExecutionStatus


def test_catalogue_lists_the_six_agents(api: Api) -> None:
    catalogue = api.run(api.client.agents.list())
    ids = [agent.id for agent in catalogue.data]
    assert ids == [
        AgentId("portfolio-health"),
        AgentId("schedule-health"),
        AgentId("budget-health"),
        AgentId("risk-assessment"),
        AgentId("resource-capacity"),
        AgentId("status-report"),
    ]
    budget = catalogue.data[2]
    assert {m.name for m in budget.metrics} >= {"varianceAtCompletion", "cpiProxy", "largestOverrun"}
    assert budget.changes_records is False


def test_run_then_poll_the_execution(api: Api) -> None:
    project = new_project(api, budget=100_000, forecast_cost=130_000, forecast_end_date=dt.date(2027, 3, 31))
    accepted = api.run(
        api.client.agents.run(
            AgentRunRequest(agent_id=AgentId("budget-health"), scope=f"project:{project.id}", depth=AgentDepth.STANDARD)
        )
    )
    assert accepted.status == ExecutionStatus.PENDING
    done = api.run(api.client.agents.executions.poll(accepted.execution_id, poll_interval=0.1, timeout=60))
    assert done.status == ExecutionStatus.COMPLETED
    assert done.attempts == 1
    assert done.error is None
    assert done.output is not None
    assert done.output.metrics["largestOverrun"] == 30_000
    finding = next(f for f in done.output.findings if "by amount" in f.title)
    cited = finding.citations[0]
    assert (str(cited.id), cited.field, cited.url) == (str(project.id), "forecastCost", f"/v1/projects/{project.id}")
    listed = api.run(api.client.agents.executions.list(agent_id=AgentId("budget-health"), sort="-createdAt"))
    assert listed.data[0].execution_id == accepted.execution_id


def test_status_report_of_the_portfolio_cites_every_sentence(api: Api) -> None:
    done = api.run(api.client.agents.run_and_poll(agent_id="status-report", poll_interval=0.1, timeout=120))
    assert done.status == ExecutionStatus.COMPLETED
    assert done.output is not None and done.output.report is not None
    report = done.output.report
    assert [s.id for s in report.sections] == ["overall", "schedule", "cost", "risks", "decisions"]
    indices = {c.index for c in done.output.citations}
    for section in report.sections:
        for sentence in section.sentences:
            markers = [int(n) for n in re.findall(r"\[(\d+)\]", sentence)]
            assert markers, sentence
            assert set(markers) <= indices, sentence


def test_run_and_poll_takes_a_model_or_keyword_arguments(api: Api) -> None:
    by_model = api.run(api.client.agents.run_and_poll(AgentRunRequest(agent_id=AgentId.RISK_ASSESSMENT), poll_interval=0.1))
    by_fields = api.run(api.client.agents.run_and_poll(agent_id=AgentId.RISK_ASSESSMENT, depth="quick", poll_interval=0.1))
    assert (by_model.status, by_fields.status) == (ExecutionStatus.COMPLETED, ExecutionStatus.COMPLETED)
    assert by_model.execution_id != by_fields.execution_id

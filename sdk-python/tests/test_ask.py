"""The Ask agent against the live server (the NYC demo tenant), with both clients: an answer whose every ``[n]``
is a citation resolving to a record of the tenant, the restriction to one project, and 404 for an unknown one."""

from __future__ import annotations

import re
import uuid

import pytest

import meridian
from conftest import Api, new_project, unique
from meridian.models import AskRequest, CitationType, RiskCreate


def markers(answer: str) -> set[int]:
    """The citation indexes an answer refers to: ``[n]`` and every index of a range ``[a]–[b]``."""
    out: set[int] = set()
    for a, b in re.findall(r"\[(\d+)\]–\[(\d+)\]", answer):
        out.update(range(int(a), int(b) + 1))
    for n in re.findall(r"\[(\d+)\]", re.sub(r"\[\d+\]–\[\d+\]", " ", answer)):
        out.add(int(n))
    return out


def test_ask_cites_the_largest_overruns(read_api: Api) -> None:
    answer = read_api.run(read_api.client.agents.ask(AskRequest(question="What are the three largest cost overruns?")))
    assert answer.engine == "embedded"
    assert [c.index for c in answer.citations] == [1, 2, 3]
    assert markers(answer.answer) == {1, 2, 3}
    for citation in answer.citations:
        assert citation.type == CitationType.PROJECT
        assert citation.url == f"/v1/projects/{citation.id}"
        assert citation.var_field == "forecastCost"
        project = read_api.run(read_api.client.projects.retrieve(citation.id))
        assert project.name == citation.title
        assert project.forecast_cost is not None and project.budget is not None
        assert project.forecast_cost > project.budget


def test_ask_restricted_to_one_project(api: Api) -> None:
    project = new_project(api)
    title = unique("Cofferdam leaks")
    risk = api.run(
        api.client.risks.create(RiskCreate(title=title, project_id=project.id, likelihood=4, impact=5))
    )
    answer = api.run(api.client.agents.ask(AskRequest(question="What are the risks?", project_id=project.id)))
    assert risk.id in [c.id for c in answer.citations]
    assert {c.id for c in answer.citations} <= {risk.id, project.id}
    assert title in answer.answer


def test_ask_nothing_relevant_and_unknown_project(read_api: Api) -> None:
    nothing = read_api.run(read_api.client.agents.ask(AskRequest(question="Give me a recipe for apple pie")))
    assert nothing.citations == []
    with pytest.raises(meridian.NotFoundError):
        read_api.run(read_api.client.agents.ask(AskRequest(question="Status?", project_id=uuid.uuid4())))

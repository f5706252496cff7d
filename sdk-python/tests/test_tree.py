"""The whole resource tree against the live server, with both clients: every operation of the spec is reached through
its resource method, on the demo tenant, in an order that builds the records each call needs. An httpx event hook
maps each request back to its operation, and the test ends by comparing the operations reached with the spec's."""

from __future__ import annotations

import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Iterator, Set

import httpx
import pytest

import meridian

from conftest import Api, unique
from meridian._generated import resources
from meridian._generated.resources import RESOURCE_METHODS
from meridian.models import UserRole

DESCRIPTORS = [value for value in vars(resources).values() if type(value).__name__ == "Operation"]


def operation_of(method: str, path: str) -> str:
    """The operationId a request is for: its method and a path that matches the operation's template."""
    path = path.split("/v1", 1)[1]
    for op in DESCRIPTORS:
        if op.method == method and re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", op.path), path):
            return str(op.operation_id)
    raise AssertionError(f"no operation for {method} {path}")


@pytest.fixture(scope="module")
def receiver() -> Iterator[str]:
    """A webhook endpoint that accepts every delivery (for webhooks.test)."""

    class Accept(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 -- http.server's naming
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.send_response(204)
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Accept)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hook"
    server.shutdown()


def test_every_operation_through_its_resource_method(kind: str, base_url: str, api_key: str, receiver: str) -> None:
    reached: Set[str] = set()

    def record(request: httpx.Request) -> None:
        reached.add(operation_of(request.method, request.url.path))

    async def arecord(request: httpx.Request) -> None:
        record(request)

    http: Any = (httpx.AsyncClient(event_hooks={"request": [arecord]}) if kind == "async"
                 else httpx.Client(event_hooks={"request": [record]}))
    with Api(kind, api_key=api_key, base_url=base_url, http_client=http) as api:
        c, run = api.client, api.run
        run(c.me.retrieve())
        tenant = run(c.tenant.retrieve())
        run(c.tenant.update(settings={"llm_enabled": tenant.settings.llm_enabled}))

        project = run(c.projects.create(name=unique("Tree"), start_date="2026-01-05", end_date="2026-09-30"))
        assert run(c.projects.list(q=project.name)).data[0].id == project.id
        run(c.projects.retrieve(project.id))
        run(c.projects.update(project.id, progress=5))
        report = run(c.projects.status_reports.create(project.id, as_of="2026-02-01", status="ON_TRACK"))
        run(c.projects.status_reports.list(project.id))
        run(c.status_reports.list(project_id=project.id))
        run(c.status_reports.retrieve(report.id))

        milestone = run(c.projects.milestones.create(project.id, name="Design", due_date="2026-03-01"))
        run(c.projects.milestones.list(project.id))
        run(c.projects.milestones.retrieve(milestone.id))
        run(c.projects.milestones.update(milestone.id, name="Design done"))
        run(c.projects.milestones.delete(milestone.id))

        risk = run(c.risks.create(title="Flood", project_id=project.id, likelihood=2, impact=3))
        run(c.risks.list(project_id=project.id))
        run(c.risks.retrieve(risk.id))
        run(c.risks.update(risk.id, impact=4))
        issue = run(c.issues.create(title="Permit", project_id=project.id))
        run(c.issues.list(project_id=project.id))
        run(c.issues.retrieve(issue.id))
        run(c.issues.update(issue.id, priority="HIGH"))

        resource = run(c.resources.create(name=unique("Ana")))
        run(c.resources.list(limit=1))
        run(c.resources.retrieve(resource.id))
        run(c.resources.update(resource.id, role="Engineer"))
        run(c.resources.availability.retrieve(resource.id, from_="2026-01-05", to="2026-02-01"))
        allocation = run(c.allocations.create(resource_id=resource.id, project_id=project.id, start_date="2026-01-05",
                                              end_date="2026-02-01", allocation_percent=50))
        run(c.allocations.list(resource_id=resource.id))
        run(c.allocations.retrieve(allocation.id))
        run(c.allocations.update(allocation.id, allocation_percent=60))
        run(c.allocations.conflicts.list(resource_id=resource.id, from_="2026-01-05", to="2026-02-01"))
        run(c.allocations.delete(allocation.id))

        run(c.agents.list())
        execution = run(c.agents.run(agent_id="risk-assessment", scope=f"project:{project.id}"))
        run(c.agents.executions.list(limit=1))
        run(c.agents.executions.retrieve(execution.execution_id))
        run(c.agents.ask(question="What are the risks?", project_id=project.id))

        hook = run(c.webhooks.create(url=receiver, events=["*"]))
        run(c.webhooks.list(limit=1))
        run(c.webhooks.retrieve(hook.id))
        run(c.webhooks.update(hook.id, events=["risk.created"]))
        run(c.webhooks.rotate_secret(hook.id))
        run(c.webhooks.reveal_secret(hook.id))
        delivery = run(c.webhooks.test(hook.id))
        run(c.webhooks.deliveries.list(hook.id))
        resent = run(c.webhooks.deliveries.resend(hook.id, delivery.id))
        assert resent.id == delivery.id
        run(c.webhooks.delete(hook.id))

        key = run(c.api_keys.create(name=unique("Tree"), scopes=["read"]))
        run(c.api_keys.list(limit=1))
        successor = run(c.api_keys.roll(key.id, grace_period="now"))
        assert successor.name == key.name and successor.key.startswith("mk_live_")
        run(c.api_keys.delete(successor.id))
        run(c.api_keys.delete(key.id))
        run(c.audit_logs.list(limit=1))

        # Members, invitations and single sign-on, by calls that leave the tenant's owners as they are.
        me = run(c.me.retrieve())
        run(c.members.list(limit=1))
        run(c.members.retrieve(me.user.id))
        assert run(c.members.update(me.user.id, role=UserRole.OWNER)).role == UserRole.OWNER
        with pytest.raises(meridian.NotFoundError):
            run(c.members.delete("0194f2a0-2d4f-7b21-8c3e-4f5a6b7c8d02"))
        invitation = run(c.invitations.create(email=f"{unique('tree')}@example.com", role=UserRole.VIEWER))
        run(c.invitations.list(limit=1))
        run(c.invitations.delete(invitation.id))
        try:
            run(c.tenant.sso.retrieve())
        except meridian.NotFoundError:
            pass
        with pytest.raises(meridian.PermissionDeniedError):
            run(c.tenant.sso.update(issuer_url="https://login.example.com", client_id="meridian",
                                    client_secret="secret", allowed_domains=["example.com"], default_role="member"))
        run(c.tenant.sso.delete())

    assert sorted(set(RESOURCE_METHODS) - reached) == []

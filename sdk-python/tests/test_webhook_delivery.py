"""A live webhook delivery verified by the SDK's helper: register an endpoint on a real local receiver, create a
risk through the API, and check the signed ``risk.created`` delivery with ``verify_webhook``/``unwrap_webhook`` and
with the reference ``standardwebhooks`` library (the server's delivery worker runs in process for these tests)."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import standardwebhooks

import meridian
from conftest import Api, unique
from meridian.models import ProjectCreate, RiskCreate, RiskCreatedEvent, RiskSeverity, WebhookEndpointCreate


class _Inbox(BaseHTTPRequestHandler):
    received: list[tuple[bytes, dict[str, str]]] = []

    def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        type(self).received.append((body, {k.lower(): v for k, v in self.headers.items()}))
        self.send_response(204)
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (http.server's signature)
        pass


def test_live_delivery_verifies_with_the_sdk_and_the_reference_library(api: Api) -> None:
    _Inbox.received = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Inbox)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/hook"
        endpoint = api.run(api.client.webhooks.create(WebhookEndpointCreate(url=url, events=["risk.created"])))
        assert endpoint.secret.startswith("whsec_")
        project = api.run(
            api.client.projects.create(
                ProjectCreate(name=unique("Hooked"), start_date="2026-02-02", end_date="2026-08-31")
            )
        )
        risk = api.run(
            api.client.risks.create(
                RiskCreate(title="Scaffold collapse", project_id=project.id, likelihood=2, impact=5)
            )
        )

        deadline = time.monotonic() + 20
        while not _Inbox.received and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _Inbox.received, "no delivery within 20 s"
        body, headers = _Inbox.received[0]

        meridian.verify_webhook(body, headers, endpoint.secret)
        event = api.client.webhooks.unwrap(body, headers, endpoint.secret)
        reference = standardwebhooks.Webhook(endpoint.secret).verify(body, headers)
        assert reference == json.loads(body)
        assert isinstance(event, RiskCreatedEvent)
        assert event.event == reference["event"] == "risk.created"
        assert event.data.risk_id == risk.id
        assert event.data.risk.severity == RiskSeverity.HIGH
        assert headers["webhook-id"] == str(event.id)

        with pytest.raises(meridian.WebhookVerificationError):
            meridian.verify_webhook(body + b" ", headers, endpoint.secret)
        api.run(api.client.webhooks.delete(endpoint.id))
    finally:
        server.shutdown()
        server.server_close()

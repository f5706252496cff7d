"""Standard Webhooks verification: the published test vector, a cross-check with the `standardwebhooks` package,
tampering, stale and future timestamps, secret rotation, the headers `sign_webhook` returns, and the typed events
`unwrap_webhook` returns (with both clients' `client.webhooks`)."""

from __future__ import annotations

import base64
import datetime as dt
import json
import os
import time

import pytest
from standardwebhooks.webhooks import Webhook

import meridian
from conftest import Api, new_project
from meridian.models import RiskCreate, RiskCreatedEvent, RiskSeverity

# The Standard Webhooks reference vector (standard-webhooks/standard-webhooks, libraries' tests).
SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
MSG_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek"
TIMESTAMP = 1614265330
PAYLOAD = '{"test": 2432232314}'
SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="


def headers(signature: str = SIGNATURE, timestamp: int = TIMESTAMP, msg_id: str = MSG_ID) -> dict[str, str]:
    return {"webhook-id": msg_id, "webhook-timestamp": str(timestamp), "webhook-signature": signature}


def test_reference_vector() -> None:
    assert meridian.sign_webhook(PAYLOAD, SECRET, msg_id=MSG_ID, timestamp=TIMESTAMP) == headers()
    meridian.verify_webhook(PAYLOAD, headers(), SECRET, now=TIMESTAMP)
    meridian.verify_webhook(PAYLOAD.encode(), headers(), SECRET, now=TIMESTAMP + 299)
    # Not an event: verified, but no event can be made of it.
    with pytest.raises(meridian.WebhookVerificationError, match="does not match"):
        meridian.unwrap_webhook(PAYLOAD, headers(), SECRET, now=TIMESTAMP)


def test_sign_returns_the_three_headers_verify_accepts() -> None:
    body = b'{"hello": "world"}'
    signed = meridian.sign_webhook(body, SECRET)
    assert sorted(signed) == ["webhook-id", "webhook-signature", "webhook-timestamp"]
    assert signed["webhook-id"].startswith("msg_") and signed["webhook-signature"].startswith("v1,")
    assert abs(int(signed["webhook-timestamp"]) - time.time()) < 5
    meridian.verify_webhook(body, signed, SECRET)
    meridian.webhooks.verify(body, meridian.webhooks.sign(body, SECRET), SECRET)
    # The reference library accepts what we sign, headers as they are.
    assert Webhook(SECRET).verify(body, signed) == {"hello": "world"}


def test_header_names_are_case_insensitive() -> None:
    mixed = {"Webhook-Id": MSG_ID, "WEBHOOK-TIMESTAMP": str(TIMESTAMP), "Webhook-Signature": SIGNATURE}
    meridian.verify_webhook(PAYLOAD, mixed, SECRET, now=TIMESTAMP)


def test_cross_check_with_standardwebhooks() -> None:
    secret = "whsec_" + base64.b64encode(os.urandom(32)).decode()
    now = int(time.time())
    event = {
        "id": "evt_01", "event": "risk.created", "tenantId": "t", "timestamp": "2026-06-02T14:30:00Z", "data": {},
    }
    body = json.dumps(event)
    # Signed by the reference library, verified by ours …
    theirs = Webhook(secret).sign("evt_01", dt.datetime.fromtimestamp(now, tz=dt.timezone.utc), body)
    meridian.verify_webhook(body, headers(theirs, now, "evt_01"), secret)
    # … and signed by ours, verified by the reference library.
    ours = meridian.sign_webhook(body, secret, msg_id="evt_01", timestamp=now)
    assert ours == headers(theirs, now, "evt_01")
    assert Webhook(secret).verify(body, ours) == event
    # The reference vector through the reference library gives the same signature.
    assert Webhook(SECRET).sign(MSG_ID, dt.datetime.fromtimestamp(TIMESTAMP, tz=dt.timezone.utc), PAYLOAD) == SIGNATURE


@pytest.mark.parametrize(
    "payload,hdrs",
    [
        ('{"test": 2432232315}', headers()),  # body changed
        (PAYLOAD, headers(msg_id="msg_other")),  # id changed
        (PAYLOAD, headers("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE")),  # signature truncated
        (PAYLOAD, headers("v2," + SIGNATURE[3:])),  # unknown version
        (PAYLOAD, headers("")),  # empty signature
    ],
)
def test_tampering_is_rejected(payload: str, hdrs: dict[str, str]) -> None:
    with pytest.raises(meridian.WebhookVerificationError):
        meridian.verify_webhook(payload, hdrs, SECRET, now=TIMESTAMP)


def test_wrong_secret_is_rejected() -> None:
    other = "whsec_" + base64.b64encode(b"another secret of 24 bytes!").decode()
    with pytest.raises(meridian.WebhookVerificationError, match="no webhook-signature matches"):
        meridian.verify_webhook(PAYLOAD, headers(), other, now=TIMESTAMP)


def test_stale_and_future_timestamps_are_rejected() -> None:
    with pytest.raises(meridian.WebhookVerificationError, match="too old"):
        meridian.verify_webhook(PAYLOAD, headers(), SECRET, now=TIMESTAMP + 301)
    with pytest.raises(meridian.WebhookVerificationError, match="too old"):
        meridian.verify_webhook(PAYLOAD, headers(), SECRET)  # the vector is from 2021: stale against the real clock
    with pytest.raises(meridian.WebhookVerificationError, match="future"):
        meridian.verify_webhook(PAYLOAD, headers(), SECRET, now=TIMESTAMP - 301)
    meridian.verify_webhook(PAYLOAD, headers(), SECRET, tolerance=10**9)


def test_missing_headers_and_bad_timestamp() -> None:
    for name in ("webhook-id", "webhook-timestamp", "webhook-signature"):
        partial = {k: v for k, v in headers().items() if k != name}
        with pytest.raises(meridian.WebhookVerificationError, match="missing"):
            meridian.verify_webhook(PAYLOAD, partial, SECRET, now=TIMESTAMP)
    with pytest.raises(meridian.WebhookVerificationError, match="Unix time"):
        meridian.verify_webhook(PAYLOAD, headers(timestamp="soon"), SECRET, now=TIMESTAMP)  # type: ignore[arg-type]


def test_rotation_sends_two_signatures() -> None:
    old = "whsec_" + base64.b64encode(b"the old secret, 24 bytes").decode()
    both = meridian.sign_webhook(PAYLOAD, old, msg_id=MSG_ID, timestamp=TIMESTAMP)["webhook-signature"] + " " + SIGNATURE
    meridian.verify_webhook(PAYLOAD, headers(both), SECRET, now=TIMESTAMP)
    meridian.verify_webhook(PAYLOAD, headers(both), old, now=TIMESTAMP)


def test_repeated_headers_are_joined_as_a_signature_list() -> None:
    old = "whsec_" + base64.b64encode(b"the old secret, 24 bytes").decode()
    old_signature = meridian.sign_webhook(PAYLOAD, old, msg_id=MSG_ID, timestamp=TIMESTAMP)["webhook-signature"]
    pairs = [("webhook-id", MSG_ID), ("webhook-timestamp", str(TIMESTAMP)),
             ("webhook-signature", old_signature), ("Webhook-Signature", SIGNATURE)]

    class Pairs:  # what frameworks' multi-value header objects offer
        def items(self) -> list[tuple[str, str]]:
            return pairs

    meridian.verify_webhook(PAYLOAD, Pairs(), SECRET, now=TIMESTAMP)


def test_unwrap_returns_the_typed_event(api: Api) -> None:
    secret = "whsec_" + base64.b64encode(os.urandom(24)).decode()
    project = new_project(api)
    created = api.run(
        api.client.risks.with_raw_response.create(
            RiskCreate(title="Steel delivery slips", project_id=project.id, likelihood=4, impact=3)
        )
    )
    risk = created.http_response.json()  # the body as sent, read-only fields included
    body = json.dumps({
        "id": "0194f9a2-6a1e-7c3d-9b2a-1f4e5d6c7b8c", "event": "risk.created",
        "tenantId": "0194f9a2-6a1e-7c3d-9b2a-1f4e5d6c7b8d", "timestamp": "2026-06-02T14:30:00Z",
        "data": {"riskId": risk["id"], "projectId": risk["projectId"], "risk": risk},
    }).encode()
    event = api.client.webhooks.unwrap(body, api.client.webhooks.sign(body, secret), secret)
    assert isinstance(event, RiskCreatedEvent)
    assert event.event == "risk.created"
    assert event.data.risk.title == "Steel delivery slips"
    assert event.data.risk.severity == RiskSeverity.HIGH
    assert str(event.data.risk_id) == risk["id"]
    with pytest.raises(meridian.WebhookVerificationError, match="not JSON"):
        meridian.unwrap_webhook(b"not json", meridian.sign_webhook(b"not json", secret), secret)


def test_unwrap_keeps_events_newer_than_the_sdk() -> None:
    body = json.dumps({
        "id": "0194f9a2-6a1e-7c3d-9b2a-1f4e5d6c7b8c", "event": "project.archived",
        "tenantId": "0194f9a2-6a1e-7c3d-9b2a-1f4e5d6c7b8d", "timestamp": "2026-06-02T14:30:00Z",
        "data": {"projectId": "0194f9a2-6a1e-7c3d-9b2a-1f4e5d6c7b8e"},
    })
    event = meridian.unwrap_webhook(body, meridian.sign_webhook(body, SECRET), SECRET)
    assert isinstance(event, meridian.UnknownWebhookEvent)
    assert event.event == "project.archived" and event.data == {"projectId": "0194f9a2-6a1e-7c3d-9b2a-1f4e5d6c7b8e"}


def test_unwrap_rejects_a_known_event_of_the_wrong_shape() -> None:
    body = json.dumps({"id": "0194f9a2-6a1e-7c3d-9b2a-1f4e5d6c7b8c", "event": "risk.created", "data": {}})
    with pytest.raises(meridian.WebhookVerificationError, match="risk.created"):
        meridian.unwrap_webhook(body, meridian.sign_webhook(body, SECRET), SECRET)

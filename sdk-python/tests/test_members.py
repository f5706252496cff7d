"""Members and invitations against the live server, with both clients: list and retrieve members, the last owner
kept (ConflictError), invite (the link once), list pending invitations and revoke one."""

from __future__ import annotations

import pytest

import meridian
from conftest import Api, unique
from meridian.models import UserRole


def test_members_list_and_retrieve(api: Api) -> None:
    members = api.collect(api.client.members.list())
    owners = [m for m in members if m.role == UserRole.OWNER]
    assert owners, "the demo tenant has an owner"
    one = api.run(api.client.members.retrieve(owners[0].id))
    assert one.id == owners[0].id and one.role == UserRole.OWNER


def test_invite_list_and_revoke(api: Api) -> None:
    email = f"{unique('invitee')}@example.com"
    invitation = api.run(api.client.invitations.create(email=email, role=UserRole.VIEWER))
    assert "/console/invitations/accept#token=mi_" in invitation.url
    assert invitation.email == email and invitation.role == UserRole.VIEWER
    pending = api.collect(api.client.invitations.list())
    assert invitation.id in {i.id for i in pending}
    api.run(api.client.invitations.delete(invitation.id))
    pending = api.collect(api.client.invitations.list())
    assert invitation.id not in {i.id for i in pending}
    again = api.run(api.client.invitations.create(email=email, role=UserRole.MEMBER))
    with pytest.raises(meridian.ConflictError):
        api.run(api.client.invitations.create(email=email.upper(), role=UserRole.VIEWER))
    api.run(api.client.invitations.delete(again.id))

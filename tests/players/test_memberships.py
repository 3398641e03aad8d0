import datetime

import pytest
from django.core import mail
from django.utils import timezone

from clubsite.kit.errors import NotAllowed
from players import services, tasks
from players.models import Membership
from tests.factories import AssociationFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db
today = timezone.localdate


def test_current_membership_covers_today():
    current = MembershipFactory()
    MembershipFactory(starts_on=today() - datetime.timedelta(days=400), expires_on=today() - datetime.timedelta(days=1))
    life = MembershipFactory(expires_on=None, type="life")
    assert set(Membership.objects.current()) == {current, life}


def test_renewal_reminder_sent_once_30_days_before_expiry(on_commit):
    due = MembershipFactory(expires_on=today() + datetime.timedelta(days=30))
    MembershipFactory(expires_on=today() + datetime.timedelta(days=90))
    with on_commit(execute=True):
        assert tasks.send_renewal_reminders() == 1
    assert [m.to for m in mail.outbox] == [[due.player.email]]
    with on_commit(execute=True):
        assert tasks.send_renewal_reminders() == 0  # safe to run twice
    assert len(mail.outbox) == 1


def test_staff_record_memberships_and_bad_dates_are_refused():
    staff = UserFactory(is_staff=True)
    player = PlayerFactory()
    with pytest.raises(services.MemberError, match="on or after the start"):
        services.record_membership(
            staff,
            player,
            association=AssociationFactory(),
            starts_on=today(),
            expires_on=today() - datetime.timedelta(days=1),
        )
    with pytest.raises(services.MemberError, match="negative"):
        services.record_membership(staff, player, association=AssociationFactory(), starts_on=today(), fee=-5)
    with pytest.raises(NotAllowed):
        services.record_membership(UserFactory(), player, association=AssociationFactory(), starts_on=today())
    assert not player.memberships.exists()


def test_admin_lists_members_expiring_soon(admin_client):
    soon = MembershipFactory(expires_on=today() + datetime.timedelta(days=10), player__full_name="Soon Expiring")
    MembershipFactory(player__full_name="Long Current")
    html = admin_client.get("/admin/players/player/?membership=expiring").content.decode()
    assert soon.player.full_name in html and "Long Current" not in html

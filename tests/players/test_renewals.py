"""Members renew from their own account; staff record the payment, which extends the membership."""

import datetime
import re

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from clubsite.kit.errors import NotAllowed
from players import services, tasks
from players.models import Membership, RenewalRequest, RenewalStatus
from tests.factories import AssociationFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db
today = timezone.localdate
DAY = datetime.timedelta(days=1)


@pytest.fixture
def member():
    """A member with an account whose student membership (fee 15) expires in 20 days."""
    user = UserFactory()
    association = AssociationFactory(renewal_payment_instructions="PayNow to UEN 201912345X")
    player = PlayerFactory(user=user)
    membership = MembershipFactory(
        player=player,
        association=association,
        type="student",
        fee=15,
        starts_on=today() - datetime.timedelta(days=345),
        expires_on=today() + datetime.timedelta(days=20),
    )
    return user, player, membership


def test_member_asks_to_renew_sees_amount_and_how_to_pay_and_staff_record_it(client, member):
    user, player, membership = member
    client.force_login(user)
    page = client.get(reverse("players:renew")).content.decode()
    assert "15.00" in page and "Renew my membership" in page

    assert client.post(reverse("players:renew"), {"renew": "1"}).status_code == 302
    renewal = RenewalRequest.objects.get(player=player)
    assert renewal.status == RenewalStatus.REQUESTED and renewal.amount == 15 and renewal.type == "student"
    page = client.get(reverse("players:renew")).content.decode()
    assert "Waiting for your payment" in page and "PayNow to UEN 201912345X" in page and "15.00" in page
    # Asking twice keeps one request.
    client.post(reverse("players:renew"), {"renew": "1"})
    assert RenewalRequest.objects.filter(player=player).count() == 1

    # Members cannot reach the staff page.
    assert client.get(reverse("players:renewals")).status_code == 403

    client.force_login(UserFactory(is_staff=True))
    listing = client.get(reverse("players:renewals")).content.decode()
    assert player.full_name in listing
    response = client.post(
        reverse("players:renewal_paid", args=[renewal.pk]),
        {f"r{renewal.pk}-method": "bank_transfer", f"r{renewal.pk}-reference": "TX-991"},
    )
    assert response.status_code == 302
    renewal.refresh_from_db()
    assert renewal.status == RenewalStatus.PAID and renewal.payment_reference == "TX-991"
    new = renewal.membership
    assert new.starts_on == membership.expires_on + DAY
    assert new.expires_on == membership.expires_on.replace(year=membership.expires_on.year + 1)
    assert new.paid_on == today() and new.fee == 15 and new.type == "student"
    listing = client.get(reverse("players:renewals")).content.decode()
    assert "is a member until" in listing and "No renewals are waiting for payment" in listing


def test_a_lapsed_membership_renews_from_the_day_of_payment(member):
    user, player, membership = member
    Membership.objects.filter(pk=membership.pk).update(
        starts_on=today() - datetime.timedelta(days=500), expires_on=today() - datetime.timedelta(days=100)
    )
    renewal = services.request_renewal(user, player)
    new = services.record_renewal_payment(UserFactory(is_staff=True), renewal, method="in_person")
    assert new.starts_on == today() and new.is_current()


def test_only_the_member_or_staff_ask_and_only_staff_record(member):
    user, player, _ = member
    with pytest.raises(NotAllowed):
        services.request_renewal(UserFactory(), player)
    renewal = services.request_renewal(user, player)
    with pytest.raises(NotAllowed):
        services.record_renewal_payment(user, renewal, method="in_person")
    staff = UserFactory(is_staff=True)
    services.record_renewal_payment(staff, renewal, method="in_person")
    with pytest.raises(services.MemberError, match="already paid"):
        services.record_renewal_payment(staff, renewal, method="in_person")
    with pytest.raises(services.MemberError, match="already paid"):
        services.cancel_renewal(user, renewal)


def test_bad_payment_details_are_refused(member):
    user, player, _ = member
    renewal = services.request_renewal(user, player)
    staff = UserFactory(is_staff=True)
    with pytest.raises(services.MemberError, match="how the member paid"):
        services.record_renewal_payment(staff, renewal, method="")
    with pytest.raises(services.MemberError, match="future"):
        services.record_renewal_payment(staff, renewal, method="cheque", paid_on=today() + DAY)
    assert RenewalRequest.objects.get(pk=renewal.pk).status == RenewalStatus.REQUESTED


def test_nothing_to_renew_is_explained(client):
    user = UserFactory()
    client.force_login(user)
    # Without a membership there is nothing to renew: the page sends the person to join.
    assert client.get(reverse("players:renew"))["Location"] == reverse("players:join")
    client.post(reverse("players:renew"), {"renew": "1"})
    assert not RenewalRequest.objects.exists()
    with pytest.raises(services.MemberError, match="join the association first"):
        services.request_renewal(user, services.ensure_own_player(user))
    life = PlayerFactory(user=UserFactory())
    MembershipFactory(player=life, type="life", expires_on=None)
    with pytest.raises(services.MemberError, match="does not expire"):
        services.request_renewal(life.user, life)


def test_member_can_cancel_a_request(client, member):
    user, player, _ = member
    renewal = services.request_renewal(user, player)
    client.force_login(user)
    client.post(reverse("players:renew"), {"cancel": renewal.pk})
    assert RenewalRequest.objects.get(pk=renewal.pk).status == RenewalStatus.CANCELLED
    # Another member's request cannot be cancelled from this page.
    other_user = UserFactory()
    other = PlayerFactory(user=other_user)
    MembershipFactory(player=other)
    theirs = services.request_renewal(other_user, other)
    client.post(reverse("players:renew"), {"cancel": theirs.pk})
    assert RenewalRequest.objects.get(pk=theirs.pk).status == RenewalStatus.REQUESTED


@pytest.mark.parametrize("sent", ["", "abc", "1e309", "-1", "a\x00b"])
def test_a_cancel_button_sent_without_a_request_number_finds_nothing(client, member, sent):
    """The button's value is the request's number; anything else (a crafted form) is not found, never a server
    error as it was (the id went to the query as it came)."""
    user, player, _ = member
    renewal = services.request_renewal(user, player)
    client.force_login(user)
    assert client.post(reverse("players:renew"), {"cancel": sent}).status_code == 404
    assert RenewalRequest.objects.get(pk=renewal.pk).status == RenewalStatus.REQUESTED


def test_admin_action_records_payment(admin_client, member):
    user, player, membership = member
    renewal = services.request_renewal(user, player)
    url = reverse("admin:players_renewalrequest_changelist")
    assert admin_client.get(url).status_code == 200
    admin_client.post(url, {"action": "paid_in_person", "_selected_action": [renewal.pk]})
    renewal.refresh_from_db()
    assert renewal.status == RenewalStatus.PAID and renewal.membership.payment_method == "in_person"


def test_the_reminder_links_to_the_renewal_page(client, on_commit, settings):
    settings.SITE_URL = "https://club.example"
    due = MembershipFactory(expires_on=today() + datetime.timedelta(days=30))
    due.player.user = UserFactory()
    due.player.save()
    with on_commit(execute=True):
        assert tasks.send_renewal_reminders() == 1
    link = re.search(r"https://club\.example(/\S+)", mail.outbox[0].body).group(1)
    assert link == reverse("players:renew")
    client.force_login(due.player.user)
    assert "Renew my membership" in client.get(link).content.decode()


def test_my_account_links_to_renewal(client, member):
    client.force_login(member[0])
    assert reverse("players:renew") in client.get(reverse("players:me")).content.decode()

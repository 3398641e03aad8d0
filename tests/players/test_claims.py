import html
import re

import pytest
from django.core import mail
from django.urls import reverse

from clubsite.kit.errors import NotAllowed
from players import services
from players.models import ClaimStatus, Player
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_unknown_member_number_is_a_clear_error(client):
    user = UserFactory()
    client.force_login(user)
    response = client.post(reverse("players:claim"), {"member_number": "999999"}, follow=True)
    assert "There is no member with number 999999" in response.content.decode()
    assert not user.claims.exists()


def test_staff_approve_a_claim_and_the_record_moves_to_the_account():
    user = UserFactory()
    placeholder = services.ensure_own_player(user)
    record = PlayerFactory(full_name="Existing Player", email="old@example.org")
    claim = services.request_claim(user, record.member_number)
    with pytest.raises(NotAllowed):
        services.decide_claim(user, claim, True)
    services.decide_claim(UserFactory(is_staff=True), claim, True)
    record.refresh_from_db()
    assert record.user == user and record.email == user.email  # the account's address replaces the old one
    assert not Player.objects.filter(pk=placeholder.pk).exists()  # no second record of the person is left
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.APPROVED
    with pytest.raises(services.MemberError):
        services.decide_claim(UserFactory(is_staff=True), claim, False)


def test_claim_by_link_to_the_email_on_record(client, on_commit):
    user = UserFactory(email="same@example.org")
    record = PlayerFactory(email="same@example.org")
    client.force_login(user)
    with on_commit(execute=True):
        client.post(reverse("players:claim"), {"member_number": record.member_number})
    link = re.search(r"(/members/me/claim/\S+/)", mail.outbox[-1].body).group(1)
    client.get(link)
    record.refresh_from_db()
    assert record.user == user


def test_claimed_record_cannot_be_claimed_again():
    record = PlayerFactory(user=UserFactory())
    with pytest.raises(services.MemberError, match="already linked"):
        services.request_claim(UserFactory(), record.member_number)


def test_the_claim_form_on_my_account_makes_a_claim(client):
    """The form under "Already a member?" posts to the claim view, not to the profile form beside it."""
    user = UserFactory()
    record = PlayerFactory(full_name="Existing Player", email="old@example.org")
    client.force_login(user)
    page = client.get(reverse("players:me")).content.decode()
    form = re.search(r'<form[^>]*id="claim-form"[^>]*>', page).group(0)
    action = re.search(r'action="([^"]*)"', form).group(1)
    assert action == reverse("players:claim")

    response = client.post(action, {"member_number": str(record.member_number), "message": "I played in 2019"})
    assert response.status_code == 302
    claim = user.claims.get()
    assert claim.player == record and claim.message == "I played in 2019"
    page = client.get(response.url).content.decode()
    assert "waiting for association staff to approve it" in page
    assert "This field is required" not in page


def _with_history(user):
    """The account's own record, with an entry in an event (history of its own)."""
    from tests.events.factories import EntryFactory

    own = services.ensure_own_player(user)
    EntryFactory(player=own)
    return own


def test_a_record_has_history_through_any_relation_but_claims():
    user = UserFactory()
    own = services.ensure_own_player(user)
    assert not services.has_history(own) and services.may_claim(user)
    PlayerFactory()  # another record changes nothing
    services.request_claim(user, PlayerFactory().member_number)  # a claim on another record is not history
    assert not services.has_history(own)
    _with_history(user)
    assert services.has_history(own) and not services.may_claim(user)


def test_an_account_whose_record_has_history_is_not_offered_a_claim_and_cannot_make_one(client):
    user = UserFactory()
    own = _with_history(user)
    record = PlayerFactory(full_name="Existing Player")
    client.force_login(user)
    page = client.get(reverse("players:me")).content.decode()
    assert 'id="claim-form"' not in page and "Already a member?" not in page

    response = client.post(reverse("players:claim"), {"member_number": str(record.member_number)}, follow=True)
    assert f"Your account's member record ({own.member_number}) already has entries" in html.unescape(
        response.content.decode()
    )
    assert not user.claims.exists()


def test_approving_a_claim_never_leaves_a_record_with_history_unlinked(admin_client):
    user = UserFactory()
    record = PlayerFactory(full_name="Existing Player")
    claim = services.request_claim(user, record.member_number)  # asked while the account's record was empty
    own = _with_history(user)  # then entered an event

    with pytest.raises(services.MemberError, match="Ask association staff to merge"):
        services.decide_claim(UserFactory(is_staff=True), claim, True)
    # The admin's action gives the same refusal and changes nothing.
    response = admin_client.post(
        reverse("admin:players_playerclaim_changelist"),
        {"action": "approve", "_selected_action": [claim.pk]},
        follow=True,
    )
    assert "already has entries, games or a membership" in response.content.decode()
    claim.refresh_from_db()
    own.refresh_from_db()
    record.refresh_from_db()
    assert claim.status == ClaimStatus.PENDING and own.user == user and record.user is None


@pytest.mark.django_db(transaction=True)
def test_a_claim_is_made_in_one_transaction():
    """The claimed record is locked until the claim is written (PostgreSQL refuses the lock outside a transaction)."""
    from django.db import connection

    user = UserFactory()
    record = PlayerFactory()
    seen = []

    def note(execute, sql, *args):
        if not sql.startswith("BEGIN"):  # the transaction's own start comes just before it counts as begun
            seen.append(connection.in_atomic_block)
        return execute(sql, *args)

    with connection.execute_wrapper(note):
        services.request_claim(user, record.member_number)
    assert seen and all(seen)


def test_a_refused_claim_keeps_what_was_typed_and_says_why_beside_the_number(client):
    user = UserFactory()
    client.force_login(user)
    page = client.post(reverse("players:claim"), {"member_number": "99999", "message": "I played in 2019"})
    assert page.status_code == 200
    form = page.context["claim_form"]
    assert form.errors == {"member_number": ["There is no member with number 99999."]}
    text = page.content.decode()
    assert 'value="99999"' in text and "I played in 2019" in text


def test_one_claim_at_a_time(client):
    user = UserFactory()
    services.ensure_own_player(user)
    first, second = PlayerFactory(), PlayerFactory()
    services.request_claim(user, first.member_number)
    assert not services.may_claim(user)
    with pytest.raises(services.MemberError, match=f"Your claim of member {first.member_number}'s record is waiting"):
        services.request_claim(user, second.member_number)
    client.force_login(user)
    page = client.get(reverse("players:me")).content.decode()
    assert 'id="claim-form"' not in page and f"({first.member_number}): Waiting for approval" in page

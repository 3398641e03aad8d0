"""Joining online: a first membership asked for as a renewal is (the fee due, paid through the ledger), made a
membership when paid in full, or when also approved where the association asks for approval."""

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from clubsite.kit.errors import NotAllowed
from money.models import Method
from money.services import receive
from players import joining, services
from players.models import Membership, MembershipOffer, Player, RenewalRequest, RenewalStatus
from tests.factories import AssociationFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db
today = timezone.localdate


@pytest.fixture
def association():
    return AssociationFactory(renewal_payment_instructions="PayNow to UEN S88SS0001A")


@pytest.fixture
def adult(association):
    return MembershipOffer.objects.create(association=association, type="ordinary", fee=Decimal("20.00"))


@pytest.fixture
def student(association):
    return MembershipOffer.objects.create(
        association=association, type="student", fee=Decimal("10.00"), proof_label="Student card number"
    )


@pytest.fixture
def junior(association):
    return MembershipOffer.objects.create(association=association, type="junior", fee=Decimal("8.00"), max_age=17)


def born_years_ago(years: int, days_more: int = 0) -> datetime.date:
    day = today()
    try:
        then = day.replace(year=day.year - years)
    except ValueError:  # 29 February
        then = day.replace(year=day.year - years, day=28)
    return then - datetime.timedelta(days=days_more)


def pay(renewal, amount, method=Method.PAYNOW):
    return receive(reference=services.renewal_reference(renewal), amount=amount, method=method, external_id="")


def test_join_makes_the_record_asks_the_fee_and_payment_in_full_makes_a_member(adult):
    user = UserFactory(email="nina@example.org")
    joined = joining.join(user, adult, full_name="Tan Nina", family_name="Tan")
    player = Player.objects.get(user=user)
    assert joined.player == player and joined.is_join and joined.status == RenewalStatus.REQUESTED
    assert joined.amount == Decimal("20.00") and joined.type == "ordinary"
    assert player.full_name == "Tan Nina" and player.family_name == "Tan" and player.email == "nina@example.org"
    assert not Membership.objects.filter(player=player).exists()

    pay(joined, "5.00")  # part of the fee: not a member yet
    joined.refresh_from_db()
    assert joined.amount_paid == Decimal("5.00") and joined.balance == Decimal("15.00") and joined.membership is None
    pay(joined, "15.00")
    joined.refresh_from_db()
    membership = joined.membership
    assert joined.status == RenewalStatus.PAID and joined.payment_method == "bank_transfer"
    # PayNow is a bank transfer as a membership records it. A year from the day it is complete, ending the day
    # before the same date next year.
    assert membership.type == "ordinary" and membership.fee == Decimal("20.00") and membership.starts_on == today()
    assert membership.expires_on == services.year_end(today())
    assert (membership.expires_on - today()).days in (364, 365)
    assert membership.player.member_number == player.member_number


def test_a_year_from_29_february_ends_on_28_february():
    assert services.year_end(datetime.date(2028, 2, 29)) == datetime.date(2029, 2, 28)
    assert services.year_end(datetime.date(2027, 3, 1)) == datetime.date(2028, 2, 29)


def test_a_sign_up_record_is_used_not_duplicated_and_double_submit_makes_one_request(adult):
    user = UserFactory()
    placeholder = services.ensure_own_player(user)
    first = joining.join(user, adult, full_name="Lim Wei", family_name="Lim")
    again = joining.join(user, adult, full_name="Lim Wei", family_name="Lim")
    assert first.pk == again.pk and RenewalRequest.objects.count() == 1
    assert Player.objects.filter(user=user).count() == 1
    placeholder.refresh_from_db()
    assert first.player_id == placeholder.pk and placeholder.full_name == "Lim Wei"


def test_joins_needing_approval_wait_for_both_payment_and_approval(association, adult):
    association.joins_need_approval = True
    association.save()
    staff = UserFactory(is_staff=True)
    joined = joining.join(UserFactory(), adult, full_name="Ong Mei", family_name="Ong")
    assert joined.needs_approval and joined.waits_for_approval
    pay(joined, "20.00")
    joined.refresh_from_db()
    # Paid in full, still not a member: the payment is kept for the approval.
    assert joined.status == RenewalStatus.REQUESTED and joined.membership is None and joined.balance == 0
    assert joined.paid_on == today() and joined.payment_method == "bank_transfer"
    with pytest.raises(NotAllowed):
        joining.approve_join(joined.player.user, joined)
    approved = joining.approve_join(staff, joined)
    assert approved.status == RenewalStatus.PAID and approved.membership.starts_on == today()
    assert approved.approved_by == staff and approved.membership.payment_method == "bank_transfer"
    with pytest.raises(services.MemberError):
        joining.approve_join(staff, approved)


def test_approved_before_paying_becomes_a_member_once_paid(association, adult):
    association.joins_need_approval = True
    association.save()
    joined = joining.join(UserFactory(), adult, full_name="Goh Kai", family_name="Goh")
    joining.approve_join(UserFactory(is_staff=True), joined)
    joined.refresh_from_db()
    assert joined.membership is None and not joined.waits_for_approval
    pay(joined, "20.00")
    joined.refresh_from_db()
    assert joined.status == RenewalStatus.PAID and joined.membership.type == "ordinary"


def test_staff_record_an_in_person_payment_of_a_join_waiting_for_approval(association, adult):
    association.joins_need_approval = True
    association.save()
    staff = UserFactory(is_staff=True)
    joined = joining.join(UserFactory(), adult, full_name="Koh Ann", family_name="Koh")
    assert services.record_renewal_payment(staff, joined, method="in_person", reference="desk") is None
    joined.refresh_from_db()
    assert joined.balance == 0 and joined.membership is None
    with pytest.raises(services.MemberError, match="approve it first"):
        services.record_renewal_payment(staff, joined, method="waived")
    assert joining.approve_join(staff, joined).membership.payment_method == "in_person"


def test_a_type_s_proof_and_date_of_birth_are_required_and_checked(student, junior):
    user = UserFactory()
    with pytest.raises(services.MemberError) as refused:
        joining.join(user, student, full_name="Chua Li", family_name="Chua")
    assert refused.value.field == "proof" and "student card number" in refused.value.message
    with pytest.raises(services.MemberError) as refused:
        joining.join(user, student, full_name="Chua Li", proof="S1234567D")
    assert refused.value.field == "proof" and "whole ID number" in refused.value.message
    with pytest.raises(services.MemberError) as refused:
        joining.join(user, junior, full_name="Chua Li")
    assert refused.value.field == "date_of_birth"
    # 18 today is too old for a junior type of 17 and under; 17 and a day short of 18 is not.
    with pytest.raises(services.MemberError, match="aged 17 or under; you are 18"):
        joining.join(user, junior, full_name="Chua Li", date_of_birth=born_years_ago(18))
    with pytest.raises(services.MemberError) as refused:
        joining.join(user, junior, full_name="Chua Li", date_of_birth=today() + datetime.timedelta(days=1))
    assert refused.value.field == "date_of_birth" and "future" in refused.value.message
    assert not RenewalRequest.objects.exists() and not Player.objects.filter(user=user).exists()
    seventeen = born_years_ago(18) + datetime.timedelta(days=1)
    joined = joining.join(user, junior, full_name="Chua Li", date_of_birth=seventeen)
    assert joined.amount == Decimal("8.00") and joined.player.date_of_birth == seventeen


def test_several_problems_are_each_named_by_field(junior, student):
    with pytest.raises(services.MemberError) as refused:
        joining.join(UserFactory(), junior, full_name="  ")
    assert {field for field, _ in refused.value.problems} == {"full_name", "date_of_birth"}


def test_hostile_proof_is_refused(student):
    for proof in ("x" * 101, "abc\x00def"):
        with pytest.raises(services.MemberError) as refused:
            joining.join(UserFactory(), student, full_name="Ho Wen", proof=proof)
        assert refused.value.field == "proof"


def test_a_type_not_joinable_online_is_refused(adult):
    adult.joinable_online = False
    adult.save()
    with pytest.raises(services.MemberError) as refused:
        joining.join(UserFactory(), adult, full_name="Yeo Tim")
    assert refused.value.field == "offer"


def test_a_member_is_sent_to_renew_and_a_record_on_file_is_claimed_not_copied(adult):
    member = PlayerFactory(user=UserFactory())
    MembershipFactory(player=member)
    with pytest.raises(joining.AlreadyMember):
        joining.join(member.user, adult, full_name=member.full_name)
    # No account, on record with the same name and email: the account claims that record instead.
    on_file = PlayerFactory(full_name="Teo Hui", family_name="Teo", email="hui@example.org")
    with pytest.raises(services.MemberError, match=f"member {on_file.member_number}"):
        joining.join(UserFactory(email="hui@example.org"), adult, full_name="Hui Teo", family_name="Teo")
    assert Player.objects.filter(full_name__in=["Teo Hui", "Hui Teo"]).count() == 1


def test_a_free_type_makes_a_member_at_once(association):
    free = MembershipOffer.objects.create(association=association, type="honorary", fee=0)
    joined = joining.join(UserFactory(), free, full_name="Low Ben")
    assert joined.status == RenewalStatus.PAID and joined.membership.payment_method == "waived"


def test_anonymous_may_not_join(adult):
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(NotAllowed):
        joining.join(AnonymousUser(), adult, full_name="Nobody")


# --- the page -------------------------------------------------------------------------------------


def test_the_join_page_for_a_visitor_a_new_account_and_a_member(client, adult, student):
    page = client.get(reverse("players:join")).content.decode()
    assert "Ordinary" in page and "S$20.00" in page and "Sign up to join" in page
    assert client.post(reverse("players:join"), {"offer": adult.pk}).status_code == 302  # to the log-in
    assert not RenewalRequest.objects.exists()

    user = UserFactory()
    client.force_login(user)
    page = client.get(reverse("players:join")).content.decode()
    assert 'id="join-form"' in page and "needs student card number" in page
    # Bad input: the refusal is named beside its field.
    response = client.post(reverse("players:join"), {"offer": student.pk, "full_name": "Ng Joy"})
    assert response.status_code == 200
    refusal = "Student membership needs proof: enter the student card number."
    assert response.context["form"].errors["proof"] == [refusal]
    response = client.post(reverse("players:join"), {"offer": adult.pk, "full_name": "Ng Joy", "family_name": "Ng"})
    assert response.status_code == 302
    joined = RenewalRequest.objects.get(player__user=user)
    page = client.get(reverse("players:join")).content.decode()
    assert "Waiting for your payment" in page and services.renewal_reference(joined) in page
    assert str(joined.player.member_number) in page and "PayNow to UEN S88SS0001A" in page
    # The renewal page sends someone without a membership here.
    assert client.get(reverse("players:renew"))["Location"] == reverse("players:join")

    pay(joined, "20.00")
    me = client.get(reverse("players:me")).content.decode()
    expiry = services.year_end(today())
    assert f"{joined.player.member_number}" in me and "Ordinary member until" in me
    assert f"{expiry.day} {expiry:%B %Y}" in me
    assert client.get(reverse("players:join"))["Location"] == reverse("players:renew")


def test_staff_see_joins_waiting_and_approve_them(client, association, adult):
    association.joins_need_approval = True
    association.save()
    joined = joining.join(UserFactory(), adult, full_name="Sim Ray", family_name="Sim")
    client.force_login(joined.player.user)
    assert client.post(reverse("players:join_approve", args=[joined.pk])).status_code == 403
    client.force_login(UserFactory(is_staff=True))
    listing = client.get(reverse("players:renewals")).content.decode()
    assert "Sim Ray" in listing and "join" in listing and "Approve" in listing
    assert client.post(reverse("players:join_approve", args=[joined.pk])).status_code == 302
    joined.refresh_from_db()
    assert joined.approved_at is not None and joined.membership is None  # not paid yet
    pay(joined, "20.00")
    joined.refresh_from_db()
    assert joined.membership.type == "ordinary"


# --- the API --------------------------------------------------------------------------------------


def test_join_through_the_api(adult, student):
    from rest_framework.test import APIClient

    api = APIClient()
    types = api.get("/api/membership-types/").json()["results"]
    assert [(t["type"], t["fee"], t["proof_label"]) for t in types] == [
        ("student", "10.00", "Student card number"),
        ("ordinary", "20.00", ""),
    ]
    assert api.post("/api/my/renewals/join/", {"offer": adult.pk, "full_name": "Wong Lee"}).status_code in (401, 403)
    user = UserFactory()
    api.force_authenticate(user)
    refused = api.post("/api/my/renewals/join/", {"offer": student.pk, "full_name": "Wong Lee"}, format="json")
    assert refused.status_code == 400 and "student card number" in refused.json()["proof"][0]
    huge = api.post("/api/my/renewals/join/", {"offer": 10**30, "full_name": "Wong Lee"}, format="json")
    assert huge.status_code == 400 and "offer" in huge.json()
    body = {"offer": adult.pk, "full_name": "Wong Lee", "family_name": "Wong"}
    joined = api.post("/api/my/renewals/join/", body, format="json")
    assert joined.status_code == 201
    data = joined.json()
    assert data["is_join"] and data["amount_due"] == "20.00" and data["balance"] == "20.00"
    assert data["payment_reference"] == services.renewal_reference(RenewalRequest.objects.get(player__user=user))
    assert api.post("/api/my/renewals/join/", body, format="json").json()["id"] == data["id"]  # asked twice: one
    assert [r["id"] for r in api.get("/api/my/renewals/").json()["results"]] == [data["id"]]


def test_the_demo_offers_its_types_on_the_join_page(client):
    import io

    from players import demo

    demo.load(io.StringIO())
    page = client.get(reverse("players:join")).content.decode()
    # Ordinary S$20 (what the demo's members paid), students S$10 with their card, juniors and seniors by age; life
    # membership is not joined online.
    assert [(o.type, o.fee) for o in joining.offers().order_by("fee", "type")] == [
        ("junior", 10),
        ("senior", 10),
        ("student", 10),
        ("ordinary", 20),
    ]
    assert "Ordinary (adults): S$20.00 a year" in page
    assert "Life" not in page

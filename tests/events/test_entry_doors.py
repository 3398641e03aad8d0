"""Defects found by users and an audit of the entry doors: one eligibility rule for every door, proof
of a link before entering a member for them, and the member told with a one-click withdrawal."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
import time_machine
from django.core import mail
from django.urls import reverse
from rest_framework.test import APIClient

from clubsite.kit.errors import NotAllowed
from events import services
from events.models import Entry, EntryStatus, GroupEntry
from events.services.common import local_text
from events.services.withdrawlink import make_token
from players.models import Player, SchoolLevel
from tests.events.factories import (
    CategoryFactory,
    EntryFactory,
    EventFactory,
    FeeFactory,
    fast_passwords,  # noqa: F401
    open_event,
    player_with_account,
)
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

PRIMARY = "Category B – Primary School Student"
SECONDARY = "Category A – Secondary School Student"


def students_event(**fields):
    """Seed 004: two categories by school level, S$3 standard and S$2 Passion Card fees."""
    event = EventFactory(**fields)
    a = CategoryFactory(event=event, name=SECONDARY, school_level="secondary", quota=40)
    b = CategoryFactory(event=event, name=PRIMARY, school_level="primary", quota=40)
    for category in (a, b):
        FeeFactory(category=category, name="Standard", amount=Decimal("3.00"))
        FeeFactory(
            category=category,
            name="Passion Card holder",
            amount=Decimal("2.00"),
            is_concession=True,
            proof_label="Passion Card number",
        )
    return event, a, b


def standard(category):
    return category.fees.get(is_concession=False)


def pupil_born(event, age=9):
    return date(event.starts_on.year - age, 3, 1)


def contact(**extra):
    return {
        "role": GroupEntry.Role.TEACHER,
        "contact_name": "Mrs Tan",
        "school": "Yuhua Primary",
        "address": "1 Jurong West Ave",
        "phone": "61234567",
        "email": "teacher@example.org",
        **extra,
    }


# --- 1. one eligibility rule at every door -------------------------------------------------------


def test_a_student_born_in_2005_is_refused_primary_at_every_door():
    """The reported case: an adult born in 2005 won Category B's first prize through a group entry."""
    event, a, b = students_event()
    adult = player_with_account(full_name="Grown Up", date_of_birth=date(2005, 2, 1))
    expected = f"{PRIMARY} is for primary school students"
    # Individual entry (the record says "not at school").
    with pytest.raises(services.RegistrationError, match="give the school level in My account"):
        services.register_entry(adult.user, event, category=b, fee=standard(b))
    # Even with "primary" typed into the profile, the date of birth rules them out.
    adult.school_level = SchoolLevel.PRIMARY
    adult.save()
    with pytest.raises(services.RegistrationError, match=f"{expected}, who are 6 to 13 .*born in 2005"):
        services.register_entry(adult.user, event, category=b, fee=standard(b))
    adult.school_level = SchoolLevel.NONE
    adult.save()
    # Group entry by member number: the declared level does not override the date of birth.
    row = {"member_number": adult.member_number, "date_of_birth": date(2005, 2, 1), "category": b, "fee": standard(b)}
    with pytest.raises(services.RegistrationError, match=f"Student 1 \\(Grown Up\\): {expected}, who are"):
        services.register_group(UserFactory(), event, contact=contact(), students=[row])
    # Group entry as a new child with that date of birth.
    row = {"full_name": "New Grown Up", "date_of_birth": date(2005, 2, 1), "category": b, "fee": standard(b)}
    with pytest.raises(services.RegistrationError, match="Student 1 \\(New Grown Up\\): .*born in 2005"):
        services.register_group(UserFactory(), event, contact=contact(), students=[row])
    # A group entry without a date of birth cannot slip through either.
    row = {"full_name": "No Birthday", "category": b, "fee": standard(b)}
    with pytest.raises(services.RegistrationError, match="give the date of birth on the entry"):
        services.register_group(UserFactory(), event, contact=contact(), students=[row])
    assert not Entry.objects.exists() and not Player.objects.filter(full_name="New Grown Up").exists()


def test_the_api_entry_uses_the_same_rule():
    event, a, b = students_event()
    adult = player_with_account(school_level=SchoolLevel.PRIMARY, date_of_birth=date(2005, 2, 1))
    api = APIClient()
    api.force_authenticate(adult.user)
    answer = api.post("/api/my/entries/", {"event": event.slug, "category": b.pk, "fee": standard(b).pk}, format="json")
    assert answer.status_code == 400
    assert "born in 2005 is outside it" in str(answer.json())
    assert not Entry.objects.exists()


def test_moving_an_entry_checks_the_target_category():
    event, a, b = students_event()
    teen = PlayerFactory(full_name="Tess Teen", school_level=SchoolLevel.SECONDARY, date_of_birth=pupil_born(event, 14))
    entry = EntryFactory(category=a, event=event, player=teen, fee=standard(a), amount_due=Decimal("3"))
    with pytest.raises(services.RegistrationError, match=f"Tess Teen: {PRIMARY} is for primary school students"):
        services.move_entry(event.owner, entry, b)
    entry.refresh_from_db()
    assert entry.category == a


def test_replacing_a_student_checks_the_new_one():
    event, a, b = students_event()
    teacher = UserFactory()
    row = {"full_name": "Pat Pupil", "date_of_birth": pupil_born(event), "category": b, "fee": standard(b)}
    entry = services.register_group(teacher, event, contact=contact(), students=[row]).entries.get()
    with pytest.raises(services.RegistrationError, match="born in 2005 is outside it"):
        services.replace_group_student(teacher, entry, full_name="Old Hand", date_of_birth=date(2005, 1, 1))
    entry.refresh_from_db()
    assert entry.player.full_name == "Pat Pupil"


def test_school_levels_mean_school_ages():
    event, a, b = students_event(starts_on=date(2030, 9, 6), ends_on=date(2030, 9, 6))
    ten = PlayerFactory(school_level=SchoolLevel.PRIMARY, date_of_birth=date(2020, 12, 31))
    fifteen = PlayerFactory(school_level=SchoolLevel.SECONDARY, date_of_birth=date(2015, 1, 1))
    assert services.category_refusal(b, ten) is None
    assert services.category_refusal(a, fifteen) is None
    assert "who are 12 to 18 in 2030 (born 2012–2018)" in services.category_refusal(
        a, PlayerFactory(school_level=SchoolLevel.SECONDARY, date_of_birth=date(2010, 1, 1))
    )


# --- 2. entering a member for them ------------------------------------------------------------------


def test_a_member_number_alone_does_not_enter_someone(on_commit):
    event, category, (fee,) = open_event(quota=10)
    star = PlayerFactory(full_name="Top Player", email="top@example.org", date_of_birth=date(1980, 7, 7))
    row = {"full_name": "", "member_number": str(star.member_number), "category": category, "fee": fee}
    with pytest.raises(services.RegistrationError, match="Student 1: give member .* date of birth as well"):
        services.register_group(UserFactory(), event, contact=contact(), students=[row])
    row["date_of_birth"] = date(1980, 7, 8)
    with pytest.raises(services.RegistrationError, match="Student 1: the date of birth does not match member"):
        services.register_group(UserFactory(), event, contact=contact(), students=[row])
    assert not Entry.objects.exists()
    row["date_of_birth"] = date(1980, 7, 7)
    with on_commit(execute=True):
        services.register_group(UserFactory(), event, contact=contact(), students=[row])
    told = [m for m in mail.outbox if m.to == ["top@example.org"]]
    assert [m.subject for m in told] == [f"[Scrabble Association] You have been entered – {event.title}"]
    assert "Mrs Tan (teacher-in-charge) has entered you" in told[0].body
    assert "/events/entries/withdraw/" in told[0].body
    assert all(len(m.to) == 1 and not m.cc and not m.bcc for m in mail.outbox)


def test_entry_emails_go_to_each_person_separately(on_commit):
    event, category, (fee,) = open_event(quota=10)
    kid = PlayerFactory(full_name="Kid", email="kid@example.org", date_of_birth=date(2012, 1, 1))
    row = {"member_number": str(kid.member_number), "date_of_birth": date(2012, 1, 1), "category": category, "fee": fee}
    entry = services.register_group(UserFactory(), event, contact=contact(), students=[row]).entries.get()
    mail.outbox.clear()
    with on_commit(execute=True):
        services.record_payment(event.owner, entry, amount="3", method="in_person")
    assert sorted(m.to for m in mail.outbox) == [["kid@example.org"], ["teacher@example.org"]]


def test_the_emailed_link_withdraws_without_logging_in_and_offers_the_place(client, on_commit):
    event, category, (fee,) = open_event(quota=1)
    star = PlayerFactory(full_name="Top Player", email="top@example.org", date_of_birth=date(1980, 7, 7))
    row = {
        "member_number": str(star.member_number),
        "date_of_birth": date(1980, 7, 7),
        "category": category,
        "fee": fee,
    }
    entry = services.register_group(UserFactory(), event, contact=contact(), students=[row]).entries.get()
    waiting = services.register_entry(player_with_account().user, event, category=category, fee=fee)
    assert waiting.status == EntryStatus.WAITLISTED
    url = reverse("events:withdraw_by_link", args=[make_token(entry)])
    page = client.get(url).content.decode()
    assert "Top Player" in page and "Withdraw this entry" in page
    entry.refresh_from_db()
    assert entry.status == EntryStatus.PENDING_PAYMENT  # opening the link changes nothing
    with on_commit(execute=True):
        page = client.post(url).content.decode()
    assert "is withdrawn" in page
    entry.refresh_from_db()
    waiting.refresh_from_db()
    assert entry.status == EntryStatus.WITHDRAWN and waiting.status == EntryStatus.OFFERED
    assert "nothing to withdraw" in client.get(url).content.decode()


def test_a_forged_or_other_link_does_nothing(client):
    event, category, (fee,) = open_event()
    entry = EntryFactory(category=category, event=event)
    other = EntryFactory(category=category, event=event)
    token = make_token(entry)
    assert client.post(reverse("events:withdraw_by_link", args=[token + "x"])).status_code == 404
    # The other entry's payload under this entry's signature (what a tamperer can make without the key).
    _payload, stamp, signature = token.rsplit(":", 2)
    other_payload = make_token(other).rsplit(":", 2)[0]
    forged = f"{other_payload}:{stamp}:{signature}"
    assert forged != make_token(other)
    assert client.post(reverse("events:withdraw_by_link", args=[forged])).status_code == 404
    assert Entry.objects.filter(status=EntryStatus.CONFIRMED).count() == 2


def test_an_organiser_entering_a_member_needs_the_date_of_birth_and_the_member_is_told(on_commit):
    event, category, (fee,) = open_event()
    someone = PlayerFactory(email="someone@example.org", date_of_birth=date(1990, 1, 2))
    with pytest.raises(services.RegistrationError, match="date of birth as well as the number"):
        services.register_entry(event.owner, event, category=category, fee=fee, player=someone)
    with on_commit(execute=True):
        services.register_entry(
            event.owner, event, category=category, fee=fee, player=someone, date_of_birth=date(1990, 1, 2)
        )
    assert any(
        m.subject.startswith("[Scrabble Association] You have been entered") and m.to == ["someone@example.org"]
        for m in mail.outbox
    )


# --- 3. group entry: duplicates, ID numbers, total, one payment -------------------------------------


def test_the_same_new_child_twice_is_refused():
    event, a, b = students_event()
    born = pupil_born(event)
    rows = [
        {"full_name": "Alice Ong", "date_of_birth": born, "category": b, "fee": standard(b)},
        {"full_name": "alice  ong", "date_of_birth": born, "category": b, "fee": standard(b)},
    ]
    with pytest.raises(services.RegistrationError, match="Student 2 \\(alice  ong\\) is the same child as Student 1"):
        services.register_group(UserFactory(), event, contact=contact(), students=rows)
    rows[1]["date_of_birth"] = born + timedelta(days=1)  # twins are two children
    assert services.register_group(UserFactory(), event, contact=contact(), students=rows).entries.count() == 2


@pytest.mark.parametrize("field", ["full_name", "concession_proof"])
def test_a_whole_id_number_is_refused_and_not_echoed(field):
    event, a, b = students_event()
    concession = b.fees.get(is_concession=True)
    row = {"full_name": "Alice Ong", "date_of_birth": pupil_born(event), "category": b, "fee": concession}
    row["concession_proof"] = "PC-1234"
    row[field] = "S1234567D" if field == "concession_proof" else "Alice S1234567D"
    with pytest.raises(services.RegistrationError) as refusal:
        services.register_group(UserFactory(), event, contact=contact(), students=[row])
    assert "looks like a whole ID number" in refusal.value.message
    assert "S1234567D" not in refusal.value.message
    assert not Entry.objects.exists()
    # A card number of digits is fine.
    row.update(full_name="Alice Ong", concession_proof="8012345678901234")
    assert services.register_group(UserFactory(), event, contact=contact(), students=[row]).entries.count() == 1


def test_one_payment_settles_a_group_in_order(on_commit):
    event, a, b = students_event()
    born = pupil_born(event)
    rows = [
        {"full_name": f"Pupil {n}", "date_of_birth": born + timedelta(days=n), "category": b, "fee": standard(b)}
        for n in range(3)
    ]
    group = services.register_group(UserFactory(), event, contact=contact(), students=rows)
    assert services.group_total(group.entries.all()) == Decimal("9.00")
    with pytest.raises(services.RegistrationError, match="Enter the cheque number"):
        services.record_group_payment(event.owner, group, amount="7", method="cheque")
    with pytest.raises(services.RegistrationError, match="more than the 9.00 still due"):
        services.record_group_payment(event.owner, group, amount="10", method="cheque", reference="000123")
    with pytest.raises(NotAllowed):
        services.record_group_payment(group.submitted_by, group, amount="7", method="cheque", reference="000123")
    with on_commit(execute=True):
        payments = services.record_group_payment(event.owner, group, amount="7", method="cheque", reference="000123")
    assert [p.amount for p in payments] == [Decimal("3.00"), Decimal("3.00"), Decimal("1.00")]
    entries = list(group.entries.order_by("accepted_at", "pk"))
    assert [e.status for e in entries] == ["confirmed", "confirmed", "pending_payment"]
    assert entries[2].balance == Decimal("2.00")
    assert mail.outbox[-1].to == ["teacher@example.org"] and "Pupil 2" in mail.outbox[-1].body
    services.record_group_payment(event.owner, group, amount="2", method="in_person")
    assert set(group.entries.values_list("status", flat=True)) == {"confirmed"}


# --- 4. changing a student's name -------------------------------------------------------------------


def test_changing_a_name_reuses_the_record_the_group_made():
    event, a, b = students_event()
    teacher = UserFactory()
    row = {"full_name": "Tpyo Name", "date_of_birth": pupil_born(event), "category": b, "fee": standard(b)}
    entry = services.register_group(teacher, event, contact=contact(), students=[row]).entries.get()
    record = entry.player
    before = Player.objects.count()
    services.replace_group_student(teacher, entry, full_name="Typo Name", date_of_birth=pupil_born(event))
    entry.refresh_from_db()
    assert entry.player_id == record.pk and entry.player.full_name == "Typo Name"
    assert Player.objects.count() == before


def test_changing_to_a_member_removes_the_record_left_behind():
    event, a, b = students_event()
    teacher = UserFactory()
    row = {"full_name": "Stand In", "date_of_birth": pupil_born(event), "category": b, "fee": standard(b)}
    entry = services.register_group(teacher, event, contact=contact(), students=[row]).entries.get()
    old = entry.player
    member = PlayerFactory(school_level=SchoolLevel.PRIMARY, date_of_birth=pupil_born(event, 10))
    services.replace_group_student(
        teacher, entry, full_name="x", member_number=str(member.member_number), date_of_birth=member.date_of_birth
    )
    entry.refresh_from_db()
    assert entry.player == member and not Player.objects.filter(pk=old.pk).exists()


def test_a_record_with_other_uses_is_kept():
    event, a, b = students_event()
    teacher = UserFactory()
    row = {"full_name": "Busy Pupil", "date_of_birth": pupil_born(event), "category": b, "fee": standard(b)}
    entry = services.register_group(teacher, event, contact=contact(), students=[row]).entries.get()
    old = entry.player
    other_event, category, (fee,) = open_event()
    EntryFactory(category=category, event=other_event, player=old)
    services.replace_group_student(teacher, entry, full_name="New Pupil", date_of_birth=pupil_born(event))
    entry.refresh_from_db()
    assert entry.player != old and Player.objects.get(pk=old.pk).full_name == "Busy Pupil"


def test_after_a_manual_close_the_name_change_says_it_is_closed():
    event, a, b = students_event()
    teacher = UserFactory()
    row = {"full_name": "Pat Pupil", "date_of_birth": pupil_born(event), "category": b, "fee": standard(b)}
    entry = services.register_group(teacher, event, contact=contact(), students=[row]).entries.get()
    services.close_registration(event.owner, event)
    with pytest.raises(services.RegistrationError) as refusal:
        services.replace_group_student(teacher, entry, full_name="Other Pupil", date_of_birth=pupil_born(event))
    # Closing by hand makes the closing time that moment: the refusal says when it really closed.
    event.refresh_from_db()
    closed = local_text(event, event.registration_closed_at)
    assert refusal.value.message == f"Registration closed on {closed}: names can no longer be changed."
    with time_machine.travel(event.registration_closes_at + timedelta(days=1)):
        event.refresh_from_db()
        assert f"closed on {closed}" in services.name_change_refusal(event)


# --- 5. playing up ------------------------------------------------------------------------------------


def test_a_rated_player_asks_to_play_up_when_entering():
    from ratings.models import PlayerRating, RatingList

    event, category, (fee,) = open_event()
    rating_list = RatingList.objects.create(association=event.association, name="SA ratings", slug="sa")
    rated, unrated = player_with_account(), player_with_account()
    PlayerRating.objects.create(rating_list=rating_list, player=rated, rating=1300, games=40)
    with pytest.raises(services.RegistrationError, match="Only a rated player"):
        services.register_entry(unrated.user, event, category=category, fee=fee, play_up=True)
    entry = services.register_entry(rated.user, event, category=category, fee=fee, play_up=True)
    assert entry.play_up.division_name == ""

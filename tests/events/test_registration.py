"""Entering an event: places, first come first served, eligibility, fees and every refusal."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from clubsite.kit.errors import NotAllowed
from events import services
from events.models import Entry, EntryStatus, EventStatus, GroupEntry
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


def enter(player, event, category, fee=None, **kwargs):
    return services.register_entry(player.user, event, category=category, fee=fee, **kwargs)


def test_an_entry_holds_a_place_pending_payment_and_mails_after_commit(on_commit):
    event, category, (fee,) = open_event(quota=10, payment_instructions="Pay at Jurong Green CC.")
    player = player_with_account()
    with on_commit(execute=True) as callbacks:
        entry = enter(player, event, category, fee)
        assert mail.outbox == []  # nothing leaves before the commit
    assert callbacks
    assert entry.status == EntryStatus.PENDING_PAYMENT
    assert entry.amount_due == Decimal("3.00") and entry.balance == Decimal("3.00")
    assert entry.payment_due_at == entry.accepted_at + timedelta(hours=72)
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [player.email]
    assert "Entry received" in message.subject and "Pay at Jurong Green CC." in message.body


def test_a_free_category_confirms_at_once():
    event, category, _ = open_event(fees=())
    entry = enter(player_with_account(), event, category)
    assert entry.status == EntryStatus.CONFIRMED and entry.amount_due == 0


def test_the_chosen_fee_and_concession_proof_are_kept():
    event, category, _ = open_event(fees=())
    FeeFactory(category=category, name="Standard", amount=Decimal("3"))
    concession = FeeFactory(
        category=category,
        name="Passion Card holder",
        amount=Decimal("2"),
        is_concession=True,
        proof_label="Passion Card number",
    )
    player = player_with_account()
    with pytest.raises(services.RegistrationError) as refusal:
        enter(player, event, category, concession)
    assert refusal.value.field == "concession_proof" and "Passion Card number" in refusal.value.message
    assert not Entry.objects.exists()
    entry = enter(player, event, category, concession, concession_proof="PC-1234")
    assert entry.amount_due == Decimal("2.00") and entry.concession_proof == "PC-1234"


def test_a_category_with_several_fees_asks_which():
    event, category, _ = open_event(fees=(Decimal("3"), Decimal("2")))
    with pytest.raises(services.RegistrationError) as refusal:
        enter(player_with_account(), event, category)
    assert refusal.value.field == "fee"
    assert not Entry.objects.exists()


def test_rules_must_be_accepted_and_the_moment_is_kept():
    event, category, (fee,) = open_event(rules_agreement="I agree to abide by the rules.")
    player = player_with_account()
    with pytest.raises(services.RegistrationError) as refusal:
        enter(player, event, category, fee)
    assert refusal.value.field == "accept_rules"
    assert not Entry.objects.exists()
    with time_machine.travel(timezone.now(), tick=False):
        entry = enter(player, event, category, fee, accept_rules=True)
        assert entry.rules_accepted_at == timezone.now()


def test_entering_twice_is_refused():
    event, category, (fee,) = open_event()
    player = player_with_account()
    enter(player, event, category, fee)
    with pytest.raises(services.RegistrationError) as refusal:
        enter(player, event, category, fee)
    assert "already entered" in refusal.value.message
    assert Entry.objects.count() == 1


def test_the_database_refuses_a_second_active_entry_even_without_the_service():
    from django.db import IntegrityError

    entry = EntryFactory()
    with pytest.raises(IntegrityError):
        EntryFactory(category=entry.category, player=entry.player, status=EntryStatus.WAITLISTED)


def test_a_withdrawn_player_may_enter_again():
    event, category, (fee,) = open_event()
    player = player_with_account()
    first = enter(player, event, category, fee)
    services.withdraw_entry(player.user, first)
    again = enter(player, event, category, fee)
    assert again.status == EntryStatus.PENDING_PAYMENT


@pytest.mark.parametrize(
    "status, message",
    [
        (EventStatus.DRAFT, "not published"),
        (EventStatus.CANCELLED, "cancelled"),
        (EventStatus.REGISTRATION_CLOSED, "Registration closed"),
        (EventStatus.IN_PROGRESS, "already started"),
    ],
)
def test_no_entries_unless_registration_is_open(status, message):
    event, category, (fee,) = open_event(status=status)
    with pytest.raises(services.RegistrationError) as refusal:
        enter(player_with_account(), event, category, fee)
    assert message in refusal.value.message
    assert not Entry.objects.exists()


def test_registering_after_the_closing_date_is_refused_and_closes_registration():
    event, category, (fee,) = open_event()
    with time_machine.travel(event.registration_closes_at + timedelta(minutes=1)):
        with pytest.raises(services.RegistrationError) as refusal:
            enter(player_with_account(), event, category, fee)
    assert "Registration closed on" in refusal.value.message
    assert "(Asia/Singapore)" in refusal.value.message
    assert not Entry.objects.exists()


def test_registration_opens_by_itself_at_the_opening_time():
    opens = timezone.now() + timedelta(days=2)
    event, category, (fee,) = open_event(status=EventStatus.PUBLISHED, registration_opens_at=opens)
    player = player_with_account()
    with pytest.raises(services.RegistrationError) as refusal:
        enter(player, event, category, fee)
    assert "Registration opens on" in refusal.value.message
    with time_machine.travel(opens + timedelta(seconds=1)):
        entry = enter(player, event, category, fee)
    event.refresh_from_db()
    assert event.status == EventStatus.REGISTRATION_OPEN and entry.status == EntryStatus.PENDING_PAYMENT


def test_the_periodic_task_opens_and_closes_registration_on_time():
    from events.tasks import sync_event_statuses

    opens = timezone.now() + timedelta(hours=1)
    event, *_ = open_event(status=EventStatus.PUBLISHED, registration_opens_at=opens)
    with time_machine.travel(opens + timedelta(minutes=1)):
        assert sync_event_statuses.delay().get() == 1
    event.refresh_from_db()
    assert event.status == EventStatus.REGISTRATION_OPEN
    with time_machine.travel(event.registration_closes_at + timedelta(minutes=1)):
        sync_event_statuses.delay()
        sync_event_statuses.delay()  # safe to run twice
    event.refresh_from_db()
    assert event.status == EventStatus.REGISTRATION_CLOSED
    assert event.registration_closed_at == event.registration_closes_at


def test_a_category_of_another_event_or_a_fee_of_another_category_is_refused():
    event, category, (fee,) = open_event()
    _, other_category, (other_fee,) = open_event()
    player = player_with_account()
    with pytest.raises(services.RegistrationError) as refusal:
        enter(player, event, other_category, other_fee)
    assert refusal.value.field == "category"
    with pytest.raises(services.RegistrationError) as refusal:
        enter(player, event, category, other_fee)
    assert refusal.value.field == "fee"
    assert not Entry.objects.exists()


def test_an_ineligible_category_is_refused_with_the_reason():
    event = EventFactory(starts_on=date(2030, 9, 6), ends_on=date(2030, 9, 6))
    secondary = CategoryFactory(event=event, name="Category A – Secondary", school_level="secondary")
    primary = CategoryFactory(event=event, name="Category B – Primary", school_level="primary", max_age=12)
    FeeFactory(category=secondary)
    FeeFactory(category=primary)
    pupil = player_with_account(school_level=SchoolLevel.PRIMARY, date_of_birth=date(2019, 1, 1))
    adult = player_with_account()
    with pytest.raises(services.RegistrationError) as refusal:
        enter(pupil, event, secondary)
    assert refusal.value.message == "Category A – Secondary is for secondary school students, not primary."
    with pytest.raises(services.RegistrationError) as refusal:
        enter(adult, event, primary)
    assert "give the school level in My account" in refusal.value.message
    assert not Entry.objects.exists()
    assert enter(pupil, event, primary).category == primary
    reasons = dict((c.name, r) for c, r in services.categories_for(event, pupil))
    assert reasons["Category B – Primary"] is None and "secondary" in reasons["Category A – Secondary"]


def test_age_limits_count_on_the_day_of_the_event():
    event = EventFactory(starts_on=date(2030, 9, 6), ends_on=date(2030, 9, 6))
    category = CategoryFactory(event=event, name="Under 13", max_age=12)
    FeeFactory(category=category)
    thirteen_on_the_day = player_with_account(date_of_birth=date(2017, 9, 6))
    no_birthday = player_with_account()
    with pytest.raises(services.RegistrationError, match=r"aged 12 or under on the day \(age 13\)"):
        enter(thirteen_on_the_day, event, category)
    with pytest.raises(services.RegistrationError, match="give the date of birth in My account"):
        enter(no_birthday, event, category)


def test_rating_bands_use_the_ratings_list():
    from ratings.models import PlayerRating, RatingList

    event = EventFactory()
    rating_list = RatingList.objects.create(association=event.association, name="SA ratings", slug="sa")
    top = CategoryFactory(event=event, name="Division 1", min_rating=1500)
    lower = CategoryFactory(event=event, name="Division 2", max_rating=1499)
    FeeFactory(category=top)
    FeeFactory(category=lower)
    strong, newcomer = player_with_account(), player_with_account()
    PlayerRating.objects.create(rating_list=rating_list, player=strong, rating=1720, games=80)
    with pytest.raises(services.RegistrationError, match=r"rated 1499 or less \(rated 1720\)"):
        enter(strong, event, lower)
    with pytest.raises(services.RegistrationError, match=r"1500 or more \(unrated\)"):
        enter(newcomer, event, top)
    assert enter(strong, event, top).category == top
    assert enter(newcomer, event, lower).category == lower


def test_only_oneself_unless_organiser():
    event, category, (fee,) = open_event()
    someone = PlayerFactory(date_of_birth=date(1990, 5, 1))
    with pytest.raises(NotAllowed):
        services.register_entry(UserFactory(), event, category=category, fee=fee, player=someone)
    with pytest.raises(services.RegistrationError, match="date of birth as well as the number"):
        services.register_entry(event.owner, event, category=category, fee=fee, player=someone)
    entry = services.register_entry(
        event.owner, event, category=category, fee=fee, player=someone, date_of_birth=date(1990, 5, 1)
    )
    assert entry.player == someone and entry.entered_by == event.owner


def test_an_account_without_a_player_record_gets_one_on_entering():
    event, category, (fee,) = open_event()
    user = UserFactory(first_name="Nadia", last_name="Lim")
    entry = services.register_entry(user, event, category=category, fee=fee)
    assert entry.player.user == user and entry.player.full_name == "Nadia Lim"


# --- places, first come first served ----------------------------------------------------------


def test_a_full_category_sends_new_entries_to_the_waiting_list_in_order(on_commit):
    event, category, (fee,) = open_event(quota=2)
    players = [player_with_account() for _ in range(4)]
    with on_commit(execute=True):
        entries = [enter(p, event, category, fee) for p in players]
    assert [e.status for e in entries] == ["pending_payment", "pending_payment", "waitlisted", "waitlisted"]
    assert [services.waitlist_position(e) for e in entries[2:]] == [1, 2]
    assert "waiting list, number 2 in line" in mail.outbox[-1].body
    left = services.places(event).left_in(event, category)
    assert left == 0


def test_the_event_limit_applies_across_categories():
    event, a, (fee_a,) = open_event(max_entrants=2)
    b = CategoryFactory(event=event, name="B")
    fee_b = FeeFactory(category=b)
    assert enter(player_with_account(), event, a, fee_a).status == EntryStatus.PENDING_PAYMENT
    assert enter(player_with_account(), event, b, fee_b).status == EntryStatus.PENDING_PAYMENT
    assert enter(player_with_account(), event, b, fee_b).status == EntryStatus.WAITLISTED


def test_without_a_waiting_list_a_full_event_refuses():
    event, category, (fee,) = open_event(quota=1, keeps_waiting_list=False)
    enter(player_with_account(), event, category, fee)
    with pytest.raises(services.RegistrationError, match="full and this event keeps no waiting list"):
        enter(player_with_account(), event, category, fee)
    assert Entry.objects.count() == 1


def test_entries_are_ordered_by_the_moment_they_were_accepted():
    event, category, (fee,) = open_event()
    start = timezone.now()
    later, earlier = player_with_account(), player_with_account()
    with time_machine.travel(start + timedelta(minutes=5), tick=False):
        enter(later, event, category, fee)
    with time_machine.travel(start + timedelta(minutes=1), tick=False):
        enter(earlier, event, category, fee)
    assert [e.player for e in Entry.objects.filter(event=event)] == [earlier, later]


# --- group entries ----------------------------------------------------------------------------


def contact():
    return {
        "role": GroupEntry.Role.TEACHER,
        "contact_name": "Mrs Tan",
        "school": "Yuhua Primary",
        "address": "1 Jurong West Ave",
        "phone": "61234567",
        "email": "teacher@example.org",
    }


def test_a_teacher_enters_students_each_as_an_entry_of_their_own(on_commit):
    event, category, (fee,) = open_event(quota=10)
    known = PlayerFactory(full_name="Known Student", member_number=4321, date_of_birth=date(2012, 4, 1))
    teacher = UserFactory()
    students = [
        {"full_name": "Alice Ong", "school": "Yuhua Primary", "phone": "81111111", "category": category, "fee": fee},
        {
            "full_name": "Ben Goh",
            "school": "Yuhua Primary",
            "phone": "82222222",
            "category": category.pk,
            "fee": fee.pk,
        },
        {"full_name": "", "member_number": "4321", "date_of_birth": date(2012, 4, 1), "category": category, "fee": fee},
        {"full_name": "", "member_number": ""},  # blank rows are ignored
    ]
    with on_commit(execute=True):
        group = services.register_group(teacher, event, contact=contact(), students=students)
    entries = list(group.entries.order_by("pk"))
    assert len(entries) == 3
    assert entries[2].player == known
    assert Player.objects.filter(full_name="Alice Ong", school="Yuhua Primary").exists()
    assert all(e.status == EntryStatus.PENDING_PAYMENT and e.entered_by == teacher for e in entries)
    to_teacher = [m for m in mail.outbox if m.to == ["teacher@example.org"]]
    assert len(to_teacher) == 1 and "Alice Ong" in to_teacher[0].body


def test_a_group_larger_than_allowed_is_refused_and_nothing_is_saved():
    event, category, (fee,) = open_event(max_group_size=15)
    students = [{"full_name": f"Student {i}", "category": category, "fee": fee} for i in range(16)]
    players_before = Player.objects.count()
    with pytest.raises(services.RegistrationError, match="at most 15 students; you entered 16"):
        services.register_group(UserFactory(), event, contact=contact(), students=students)
    assert not Entry.objects.exists() and not GroupEntry.objects.exists()
    assert Player.objects.count() == players_before


def test_one_bad_student_refuses_the_whole_group():
    event, category, (fee,) = open_event()
    students = [
        {"full_name": "Good Student", "category": category, "fee": fee},
        {"full_name": "", "member_number": "999999", "category": category, "fee": fee},
    ]
    with pytest.raises(services.RegistrationError, match="Student 2: there is no member with number 999999"):
        services.register_group(UserFactory(), event, contact=contact(), students=students)
    assert not Entry.objects.exists() and not Player.objects.filter(full_name="Good Student").exists()


def test_group_students_beyond_the_quota_join_the_waiting_list():
    event, category, (fee,) = open_event(quota=2)
    students = [{"full_name": f"Student {i}", "category": category, "fee": fee} for i in range(3)]
    group = services.register_group(UserFactory(), event, contact=contact(), students=students)
    assert sorted(e.status for e in group.entries.all()) == ["pending_payment", "pending_payment", "waitlisted"]


def test_the_teacher_declares_the_school_level_for_new_students():
    event = EventFactory()
    primary = CategoryFactory(event=event, name="B Primary", school_level="primary")
    fee = FeeFactory(category=primary)
    secondary_pupil = PlayerFactory(school_level=SchoolLevel.SECONDARY, date_of_birth=date(2012, 1, 1))
    born = date(event.starts_on.year - 9, 3, 1)
    group = services.register_group(
        UserFactory(),
        event,
        contact=contact(),
        students=[{"full_name": "New Pupil", "date_of_birth": born, "category": primary, "fee": fee}],
    )
    assert group.entries.get().player.school_level == SchoolLevel.PRIMARY
    with pytest.raises(services.RegistrationError, match="not secondary"):
        services.register_group(
            UserFactory(),
            event,
            contact=contact(),
            students=[
                {
                    "member_number": secondary_pupil.member_number,
                    "date_of_birth": date(2012, 1, 1),
                    "category": primary,
                    "fee": fee,
                }
            ],
        )


def test_group_contact_details_are_required():
    event, category, (fee,) = open_event()
    details = {**contact(), "phone": ""}
    with pytest.raises(services.RegistrationError) as refusal:
        services.register_group(
            UserFactory(), event, contact=details, students=[{"full_name": "A", "category": category, "fee": fee}]
        )
    assert refusal.value.field == "phone"


def test_names_in_a_group_can_be_changed_until_the_closing_date_not_after():
    event, category, (fee,) = open_event()
    teacher = UserFactory()
    group = services.register_group(
        teacher, event, contact=contact(), students=[{"full_name": "First Name", "category": category, "fee": fee}]
    )
    entry = group.entries.get()
    with pytest.raises(NotAllowed):
        services.replace_group_student(UserFactory(), entry, full_name="Someone Else")
    changed = services.replace_group_student(teacher, entry, full_name="Second Name", school="Yuhua Primary")
    assert changed.player.full_name == "Second Name" and changed.accepted_at == entry.accepted_at
    with time_machine.travel(event.registration_closes_at + timedelta(seconds=1)):
        with pytest.raises(services.RegistrationError, match="names can no longer be changed"):
            services.replace_group_student(teacher, entry, full_name="Third Name")
    entry.refresh_from_db()
    assert entry.player.full_name == "Second Name"


def test_a_refused_group_sends_no_mail(on_commit):
    event, category, (fee,) = open_event()
    students = [
        {"full_name": "Good Student", "category": category, "fee": fee},
        {"full_name": "Bad Fee", "category": category, "fee": 999999},
    ]
    with on_commit(execute=True) as callbacks:
        with pytest.raises(services.RegistrationError, match="Choose one of the fees listed"):
            services.register_group(UserFactory(), event, contact=contact(), students=students)
    assert callbacks == [] and mail.outbox == []


def test_the_registration_clock_runs_on_celery_beat(settings):
    from celery import current_app

    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    for name in ("lapse_unpaid_entries", "expire_offers", "remind_expiring_offers", "sync_event_statuses"):
        assert f"events.tasks.{name}" in scheduled
        assert f"events.tasks.{name}" in current_app.tasks


def test_a_refusal_after_the_closing_date_still_records_that_registration_closed():
    event, category, (fee,) = open_event()
    with time_machine.travel(event.registration_closes_at + timedelta(minutes=1)):
        with pytest.raises(services.RegistrationError):
            enter(player_with_account(), event, category, fee)
    event.refresh_from_db()
    assert event.status == EventStatus.REGISTRATION_CLOSED


def test_a_refused_entry_creates_no_player_record():
    event, category, (fee,) = open_event(status=EventStatus.CANCELLED)
    user = UserFactory()
    with pytest.raises(services.RegistrationError):
        services.register_entry(user, event, category=category, fee=fee)
    assert not Player.objects.filter(user=user).exists()


# --- what a registration reads under the lock ------------------------------------------------------


def test_the_waitlist_position_given_is_the_place_in_line_in_each_category():
    event, a, _ = open_event(quota=1, fees=())
    b = CategoryFactory(event=event, name="B", quota=1)
    with time_machine.travel(timezone.now(), tick=False):  # one moment: the order falls to the ids
        entries = [enter(player_with_account(), event, category) for category in (a, b, a, b, a, a, b)]
    given = [e.known_waitlist_position for e in entries]
    assert given == [None, None, 1, 1, 2, 3, 2]
    assert given == [services.waitlist_position(Entry.objects.get(pk=e.pk)) for e in entries]


def test_a_registration_ends_what_is_overdue_first_and_queues_behind_the_offer_it_made():
    event, category, (fee,) = open_event(quota=1, payment_hold_hours=72)
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        holder, first, second = [enter(player_with_account(), event, category, fee) for _ in range(3)]
    with time_machine.travel(start + timedelta(hours=73), tick=False):
        newcomer = enter(player_with_account(), event, category, fee)
    assert [Entry.objects.get(pk=e.pk).status for e in (holder, first, second)] == ["lapsed", "offered", "waitlisted"]
    assert newcomer.status == EntryStatus.WAITLISTED and newcomer.known_waitlist_position == 2


def test_a_waitlisted_entry_accepted_later_by_another_clock_is_not_counted_ahead():
    event, category, _ = open_event(quota=1, fees=())
    enter(player_with_account(), event, category)
    EntryFactory(category=category, status=EntryStatus.WAITLISTED, accepted_at=timezone.now() + timedelta(minutes=5))
    EntryFactory(category=category, status=EntryStatus.WAITLISTED, accepted_at=timezone.now() - timedelta(minutes=5))
    newcomer = enter(player_with_account(), event, category)
    assert newcomer.known_waitlist_position == 2 == services.waitlist_position(newcomer)


def _statements(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].split()[0] in ("SELECT", "INSERT", "UPDATE", "DELETE")]


@pytest.mark.parametrize(
    ("fees", "expected"),
    [
        # the event; the player and any entry of theirs; the category; the lock; the count; the entry; its mail
        ((), {"confirmed": 7, "waitlisted": 7}),
        # and the fee chosen, and the PayNow settings for what is to pay
        ((Decimal("3.00"),), {"pending_payment": 9, "waitlisted": 8}),
    ],
)
def test_an_entry_through_the_api_costs_a_few_statements(fees, expected):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.test import APIClient

    event, category, made = open_event(quota=1, fees=fees)
    api = APIClient()
    body = {"event": event.slug, "category": category.pk, "fee": made[0].pk if made else None}
    for status, count in expected.items():
        api.force_authenticate(player_with_account().user)
        with CaptureQueriesContext(connection) as queries:
            response = api.post("/api/my/entries/", body, format="json")
        assert response.status_code == 201 and response.json()["status"] == status
        statements = _statements(queries.captured_queries)
        assert len(statements) == count, "\n".join(s[:150] for s in statements)

"""One person, one record: every door that may make a player record goes through the one matching rule
(players.matching, by way of players.lookup), so a person already on record is reused or offered, never silently made
again. Each door's test makes the situation and checks what the door did with the existing record."""

import ast
import inspect
import textwrap
from datetime import date

import pytest
from allauth.account.models import EmailAddress
from django.contrib.admin.sites import site
from django.urls import reverse

from clubsite.kit.errors import NotAllowed
from events import services as events
from events.models import Entry
from events.play.services import tsh_io
from events.services import entries, groups, guests
from players import admin as players_admin
from players import forms as players_forms
from players import joining, memberimport, services
from players.models import ClaimStatus, Player
from ratings.models import MatchKind, RatingList
from ratings.services import imports
from tests.events.factories import (
    fast_passwords,  # noqa: F401
    open_event,
)
from tests.events.test_entry_doors import contact, pupil_born, standard, students_event
from tests.factories import AssociationFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db
PASSWORD = "tiles-and-racks-77"


def _calls_the_rule(function) -> bool:
    """Whether the function's own code asks players.lookup (find_person or find_people)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    return any(
        isinstance(node, ast.Attribute) and node.attr in ("find_person", "find_people") for node in ast.walk(tree)
    )


def test_every_door_that_may_make_a_record_asks_the_one_rule():
    doors = {
        "sign-up": services.sign_up_player,
        "My account's records that may be yours (the claim)": services.records_maybe_theirs,
        "group entry and class list": groups._records_for,
        "a group student on their own": groups._student_player,
        "changing a group student's name": groups.replace_group_student,
        "tsh import": tsh_io._found,
        "ratings import": imports.match_names,
        "the admin's add player": players_admin.PlayerAddForm.clean,
        "the members import": memberimport.preview,
        "joining online": joining._refuse_someone_on_record,
        "entering without an account (the form)": guests._on_record,
        "entering without an account (its link opened)": guests._entrant,
    }
    assert [door for door, function in doors.items() if not _calls_the_rule(function)] == []
    # The command's import, and the preview's offers that the import checks the director's choices against, are what
    # the rule found.
    assert "_found(f)" in inspect.getsource(tsh_io._match_players)
    assert "_found(f)" in inspect.getsource(tsh_io.offered_members)
    assert "offered_members(f)" in inspect.getsource(tsh_io._chosen_members)
    # The sign-up form makes its record only through the door above.
    assert "sign_up_player" in inspect.getsource(players_forms.SignupForm.save)
    assert "create_player" not in inspect.getsource(players_forms.SignupForm.save)
    # Doors that only name a record someone already has, and so need not ask: the test named shows each makes none.
    naming = {
        "individual entry for someone else": (
            entries.register_entry,
            test_entering_someone_else_names_their_record_and_never_makes_one,
        ),
    }
    assert [door for door, (function, _) in naming.items() if _makes_a_record_for_the_named(function)] == []


# What makes a player record, called by name.
RECORD_MAKERS = ("create_player", "ensure_own_player", "sign_up_player", "create")


def _makes_a_record_for_the_named(function) -> bool:
    """Whether a door that is given a record (`player`) may make one: it, or what it calls of the entering service,
    calls a maker of records other than for the actor's own record when no player is named (`if player is None`)."""
    for code in (function, entries._register, entries.entrant):
        tree = ast.parse(textwrap.dedent(inspect.getsource(code)))
        own = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and ast.unparse(node.test) == "player is None":
                own |= {id(inner) for stmt in node.body for inner in ast.walk(stmt)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and id(node) not in own:
                called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                if called in RECORD_MAKERS:
                    return True
    return False


def test_entering_someone_else_names_their_record_and_never_makes_one():
    """An organiser entering a member names the member's record (the caller reads it by member number) and proves it
    with the date of birth: the door is given a record, so it has no person to match and makes none, not even the
    organiser's own. A number on no record names nobody: refused, and nothing is made."""
    event, category, (fee,) = open_event()
    born = date(1990, 1, 2)
    member = PlayerFactory(full_name="Siti Rahman", date_of_birth=born)
    records = set(Player.objects.values_list("pk", flat=True))
    entry = events.register_entry(event.owner, event, category=category, fee=fee, player=member, date_of_birth=born)
    assert entry.player == member and set(Player.objects.values_list("pk", flat=True)) == records
    unknown = Player(member_number=member.member_number + 1000, full_name="Siti Rahman", date_of_birth=born)
    with pytest.raises(events.RegistrationError, match=f"There is no member with number {unknown.member_number}."):
        events.register_entry(event.owner, event, category=category, fee=fee, player=unknown, date_of_birth=born)
    assert set(Player.objects.values_list("pk", flat=True)) == records
    assert list(Entry.objects.filter(event=event)) == [entry]
    # Someone not running the event is refused before anything is read of the record.
    with pytest.raises(NotAllowed):
        events.register_entry(UserFactory(), event, category=category, fee=fee, player=unknown, date_of_birth=born)


# --- a group entry and its class list -------------------------------------------------------------------------------


def _row(event, category, name, born, **extra):
    return {"full_name": name, "date_of_birth": born, "category": category, "fee": standard(category), **extra}


def test_a_student_entered_again_by_a_teacher_keeps_one_record_and_one_member_number():
    """The defect: 1066 in one event, 1080 in the next, and the rating history split in two."""
    first, _, primary = students_event()
    born = pupil_born(first)
    teacher = UserFactory()
    entry = events.register_group(
        teacher, first, contact=contact(), students=[_row(first, primary, "Tan Ah Kow", born)]
    ).entries.get()
    number = entry.player.member_number
    second, _, primary2 = students_event(slug="second-event")
    # Written the other way round, as the next class list has it: the same name, the same date of birth.
    again = events.register_group(
        teacher, second, contact=contact(), students=[_row(second, primary2, "Ah Kow Tan", born)]
    ).entries.get()
    assert again.player.pk == entry.player.pk and again.player.member_number == number
    assert Player.objects.count() == 1


def test_a_student_who_may_be_a_member_is_offered_with_the_member_number_and_never_made_again():
    event, _, primary = students_event()
    born = pupil_born(event)
    on_record = PlayerFactory(full_name="Tan Ah Kow")  # no date of birth on record: only likely
    with pytest.raises(events.RegistrationError) as refusal:
        events.register_group(
            UserFactory(), event, contact=contact(), students=[_row(event, primary, "Tan, Ah Kow", born)]
        )
    assert refusal.value.message == (
        f"Student 1 (Tan, Ah Kow) may already be a member: member {on_record.member_number}, Tan Ah Kow. If that is "
        "the student, write the member number in the row's “Member no.”; if the student is a different person, "
        "write “new” there."
    )
    assert Player.objects.count() == 1  # nothing was made
    # "A different person": a record of their own.
    entry = events.register_group(
        UserFactory(),
        event,
        contact=contact(),
        students=[_row(event, primary, "Tan, Ah Kow", born, member_number="new")],
    ).entries.get()
    assert entry.player.pk != on_record.pk and Player.objects.count() == 2


def test_a_pasted_class_list_reuses_the_record_and_the_group_page_shows_the_member_number(client):
    event, _, _ = students_event()
    born = pupil_born(event)
    pupil = PlayerFactory(full_name="Alice Ong", date_of_birth=born)
    from tests.events.test_entry_pages import group_form

    client.force_login(UserFactory())
    text = f"Name\tDate of birth\tLevel\nOng, Alice\t{born:%d/%m/%Y}\tP4"
    page = client.post(reverse("events:enter_group", args=[event.slug]), group_form(class_list=text), follow=True)
    html = page.content.decode()
    assert Player.objects.count() == 1 and event.entries.get().player == pupil
    assert f'<td class="member-number">{pupil.member_number}</td>' in html


def test_changing_a_group_students_name_to_a_member_on_record_takes_that_record():
    event, _, primary = students_event()
    born = pupil_born(event)
    teacher = UserFactory()
    entry = events.register_group(
        teacher, event, contact=contact(), students=[_row(event, primary, "Pat Pupil", born)]
    ).entries.get()
    made = entry.player
    member = PlayerFactory(full_name="Ben Goh", date_of_birth=born)
    entry = events.replace_group_student(teacher, entry, full_name="Goh Ben", date_of_birth=born)
    assert entry.player == member
    assert not Player.objects.filter(pk=made.pk).exists()  # the record made for Pat is not left behind


# --- sign-up and the claim ------------------------------------------------------------------------------------------


def _sign_up(client, **fields):
    data = {"email": "tak@example.org", "full_name": "Tan Ah Kow", "password1": PASSWORD, "password2": PASSWORD}
    return client.post(reverse("account_signup"), {**data, **fields})


@pytest.mark.usefixtures("fast_passwords")
def test_signing_up_with_a_members_email_claims_the_record_instead_of_making_a_new_member(client):
    on_record = PlayerFactory(full_name="Ah Kow Tan", email="TAK@example.org")
    before = Player.objects.count()
    assert _sign_up(client).status_code == 302
    assert Player.objects.count() == before  # no new member
    user = EmailAddress.objects.get(email="tak@example.org").user
    claim = user.claims.get()
    assert claim.player == on_record and claim.status == ClaimStatus.PENDING
    # Confirming the address is the proof the claim link asks for: the record becomes the account's.
    address = EmailAddress.objects.get(user=user)
    address.set_verified(commit=True)
    from allauth.account.signals import email_confirmed

    email_confirmed.send(sender=EmailAddress, request=None, email_address=address)
    on_record.refresh_from_db()
    claim.refresh_from_db()
    assert on_record.user == user and claim.status == ClaimStatus.APPROVED
    assert Player.objects.count() == before


@pytest.mark.usefixtures("fast_passwords")
def test_a_member_likely_to_be_the_person_is_offered_on_my_account(client):
    """The same address under another name (a parent's address on a child's record, or the person under another
    spelling): the account gets its own record, and My account offers the claim of the other with its number."""
    child = PlayerFactory(full_name="Wei Ling Tan", email="family@example.org")
    assert _sign_up(client, email="family@example.org", full_name="Mary Tan").status_code == 302
    user = EmailAddress.objects.get(email="family@example.org").user
    assert Player.objects.get(user=user).full_name == "Mary Tan" and not user.claims.exists()
    client.force_login(user)
    html = client.get(reverse("players:me")).content.decode()
    assert "This member record may be yours:" in html
    assert f"Member <strong>{child.member_number}</strong>, Wei Ling Tan" in html


def test_after_a_claim_the_placeholder_goes_and_the_ratings_import_matches_the_claimed_record():
    """The duplicate that stayed after a claim was offered beside the real record in the ratings import's review."""
    user = UserFactory(first_name="Tan Wei Ling")
    placeholder = services.ensure_own_player(user)
    record = PlayerFactory(full_name="Wei Ling Tan")
    services.decide_claim(UserFactory(is_staff=True), services.request_claim(user, record.member_number), True)
    assert not Player.objects.filter(pk=placeholder.pk).exists()
    staff = UserFactory(is_staff=True)
    rating_list = RatingList.objects.create(association=AssociationFactory(), name="National", slug="national")
    line = imports.prepare_rating_import(staff, rating_list, "Tan, Wei Ling\t1850\t12\t-\t412\n").lines.get()
    assert (line.match, line.player_id) == (MatchKind.EXACT, record.pk)


# --- the tsh import -------------------------------------------------------------------------------------------------


@pytest.fixture
def staff():
    AssociationFactory()
    return UserFactory(is_staff=True, is_superuser=True)


def test_a_tsh_name_of_two_members_is_refused_until_the_file_or_the_director_says_who(staff):
    one = PlayerFactory(full_name="Tan Ah Kow")
    two = PlayerFactory(full_name="Ah Kow Tan")
    text = "Tan, Ah Kow 1500 2; 400\nOther, Player 1500 1; 350\n"
    with pytest.raises(tsh_io.PlayError) as refusal:
        tsh_io.import_tsh(staff, text, event_slug="two")
    assert (
        f"player 1 (Tan, Ah Kow) may be member {one.member_number}, Tan Ah Kow; or member {two.member_number}, Ah Kow "
        "Tan." in refusal.value.message
    )
    before = Player.objects.count()
    # The member id in the file names the member.
    report = tsh_io.import_tsh(staff, text.replace("Tan, Ah Kow", f"Tan, Ah Kow:{two.member_number}"), event_slug="a")
    assert report.matched[0][2] == two
    assert [n for n, _, _ in report.created] == [2] and Player.objects.count() == before + 1  # "Other, Player"
    # Or the director says the player is a different person.
    report = tsh_io.import_tsh(staff, text, event_slug="b", division_name="B", new_players={1})
    assert [n for n, _, _ in report.created] == [1] and Player.objects.count() == before + 2
    assert report.matched[0][2].full_name == "Player Other"  # made by the import before: the one of that name


def test_a_tsh_name_in_the_other_order_is_the_one_member_of_that_name(staff):
    member = PlayerFactory(full_name="Tan Ah Kow")
    report = tsh_io.import_tsh(staff, "Tan, Ah Kow 1500 0; 50\n", event_slug="one")
    assert report.matched[0][2] == member and not report.created


# --- the admin's add player -----------------------------------------------------------------------------------------


def test_the_admin_warns_of_the_person_on_record_before_adding_them_again(client):
    member = PlayerFactory(full_name="Tan Ah Kow", date_of_birth=date(2014, 3, 25))
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    url = reverse("admin:players_player_add")
    form = {
        "full_name": "Ah Kow Tan",
        "date_of_birth": "2014-03-25",
        "country": "SG",
        "school_level": "none",
        "memberships-TOTAL_FORMS": "0",
        "memberships-INITIAL_FORMS": "0",
    }
    html = client.post(url, form).content.decode()
    assert (
        f"This person is on record already (member {member.member_number}, Tan Ah Kow: the same name and date of"
        in (html)
    )
    assert Player.objects.count() == 1
    assert client.post(url, {**form, "different_person": "on"}).status_code == 302
    assert Player.objects.count() == 2
    assert site.is_registered(Player)


def test_confirming_an_address_leaves_a_claim_to_staff_when_the_accounts_own_record_has_history():
    user = UserFactory(email="tak@example.org")
    own = services.ensure_own_player(user)
    record = PlayerFactory(full_name="Tan Ah Kow", email="tak@example.org")
    claim = services.request_claim(user, record.member_number)
    MembershipFactory(player=own)  # history of its own since: the two are for staff to merge
    assert services.approve_claims_by_address(user, "TAK@example.org") == []
    claim.refresh_from_db()
    record.refresh_from_db()
    assert claim.status == ClaimStatus.PENDING and record.user is None

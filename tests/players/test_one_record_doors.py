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
from tests.factories import AssociationFactory, ClubFactory, MembershipFactory, PlayerFactory, UserFactory

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


def _two_of_one_name(event):
    """Two records a student "Tan Ah Kow" may be: one without a date of birth, at a school; one born another year, of
    a club, with an email and a phone of his own (which no teacher is shown)."""
    at_school = PlayerFactory(full_name="Tan Ah Kow", school="Rosyth School", email="")
    of_club = PlayerFactory(
        full_name="Ah Kow Tan",
        date_of_birth=date(event.starts_on.year - 30, 7, 14),
        club=ClubFactory(name="Toa Payoh Scrabble Club"),
        email="ahkow@example.org",
        phone="98765432",
    )
    return at_school, of_club


def _class_list(born, name="Tan, Ah Kow", number=""):
    rows = ["Name\tDate of birth\tLevel\tMember no.", f"Ong, Alice\t{born:%d/%m/%Y}\tP4\t"]
    return "\n".join([*rows, f"{name}\t{born:%d/%m/%Y}\tP4\t{number}"])


def test_the_group_form_offers_the_records_a_student_may_be_and_the_teacher_picks_one(client):
    """The page shows what the rule found, as choices: each record's name, member number, club or school and year of
    birth (never the date, nor anything else of someone else's), and "a different person"; the pick is the member
    number the teacher would have written in, checked as that is."""
    from tests.events.test_entry_pages import group_form

    event, _, _ = students_event()
    born = pupil_born(event)
    at_school, of_club = _two_of_one_name(event)
    records = Player.objects.count()
    client.force_login(UserFactory())
    url = reverse("events:enter_group", args=[event.slug])
    page = client.post(url, group_form(class_list=_class_list(born)))
    assert page.status_code == 200 and not event.entries.exists() and Player.objects.count() == records
    html = page.content.decode()
    assert [(s.index, s.label, s.name) for s in page.context["to_choose"]] == [(2, "Line 3", "Tan, Ah Kow")]
    choices = html[html.index('id="records-to-choose"') :]
    assert f"Tan Ah Kow, member {at_school.member_number}, Rosyth School</label>" in choices
    assert f"Ah Kow Tan, member {of_club.member_number}, Toa Payoh Scrabble Club, born {born.year - 21}</label>" in (
        choices
    )
    assert "A different person: a new record" in choices
    for private in (f"{of_club.date_of_birth:%d/%m/%Y}", str(of_club.date_of_birth), "ahkow@example.org", "98765432"):
        assert private not in html
    assert 'id="group-error"' not in html  # the choices say it all: no refusal asking for a number to be typed

    picked = client.post(
        url,
        group_form(
            class_list=_class_list(born),
            record_for_2=str(at_school.member_number),
            record_name_2="Tan, Ah Kow",
        ),
    )
    assert picked.status_code == 302
    assert {e.player.full_name: e.player for e in event.entries.all()}["Tan Ah Kow"] == at_school
    assert Player.objects.count() == records + 1  # Alice's new record, and no second one for Ah Kow
    at_school.refresh_from_db()
    assert at_school.date_of_birth == born  # the record learns the date of birth, as with a number written in


def test_a_different_person_picked_on_the_group_form_gets_a_record_of_their_own(client):
    from tests.events.test_entry_pages import group_form

    event, _, _ = students_event()
    born = pupil_born(event)
    at_school, of_club = _two_of_one_name(event)
    records = Player.objects.count()
    client.force_login(UserFactory())
    url = reverse("events:enter_group", args=[event.slug])
    done = client.post(url, group_form(class_list=_class_list(born), record_for_2="new", record_name_2="Tan, Ah Kow"))
    assert done.status_code == 302 and Player.objects.count() == records + 2
    assert not event.entries.filter(player__in=[at_school, of_club]).exists()


def test_an_answer_for_a_student_whose_name_changed_since_is_not_taken(client):
    """The list was changed after the records were offered: the answer was for another student, so it is asked
    again rather than given to whoever is at that place now."""
    from tests.events.test_entry_pages import group_form

    event, _, _ = students_event()
    born = pupil_born(event)
    at_school, _ = _two_of_one_name(event)
    client.force_login(UserFactory())
    url = reverse("events:enter_group", args=[event.slug])
    stale = group_form(class_list=_class_list(born, name="Ah Kow Tan"), record_for_2="new", record_name_2="Tan, Ah Kow")
    page = client.post(url, stale)
    assert page.status_code == 200 and not event.entries.exists()
    assert [s.name for s in page.context["to_choose"]] == ["Ah Kow Tan"]


def test_an_answer_goes_only_to_the_student_it_was_given_for_and_only_as_a_member_number_or_new():
    students = [
        {"full_name": "Ong, Alice"},
        {"full_name": "Tan, Ah Kow"},
        {"full_name": "Goh Ben", "member_number": "7"},
    ]
    chosen = {
        1: ("Ong, Alice", "=HYPERLINK()"),
        2: ("Tan, Ah Kow", "1003"),
        3: ("Goh Ben", "new"),  # a number written in the row stays
        4: ("Nobody", "new"),
        5: ("Nobody", "9" * 5000),
    }
    assert [s.get("member_number") for s in groups.with_records_chosen(students, chosen)] == [None, "1003", "7"]
    assert groups.with_records_chosen(students, {2: ("Tan, Ah Kow", "²")})[1].get("member_number") is None


def test_a_member_number_written_in_the_class_list_still_enters_the_student_under_it(client):
    from tests.events.test_entry_pages import group_form

    event, _, _ = students_event()
    born = pupil_born(event)
    at_school, _ = _two_of_one_name(event)
    records = Player.objects.count()
    client.force_login(UserFactory())
    url = reverse("events:enter_group", args=[event.slug])
    done = client.post(url, group_form(class_list=_class_list(born, number=str(at_school.member_number))))
    assert done.status_code == 302 and event.entries.filter(player=at_school).exists()
    assert Player.objects.count() == records + 1


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

"""Lexicon upload, opening and closing the judge, rulings at the venue and the director's log."""

import zlib
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from clubsite.kit.errors import NotAllowed, ServiceError
from events.models import EventStatus
from tests.events.factories import EventFactory
from tests.factories import UserFactory
from wordjudge import services
from wordjudge.models import Judgement, JudgeSession, Lexicon

pytestmark = pytest.mark.django_db

WORD_FILE = b"qi\nZA\ncat\r\ncats\n\nDog\nqat\n"


@pytest.fixture(autouse=True)
def _fresh_cache():
    services.forget_cached_lists()
    yield
    services.forget_cached_lists()


@pytest.fixture
def staff():
    return UserFactory(is_staff=True)


@pytest.fixture
def event():
    now = timezone.now()
    return EventFactory(
        status=EventStatus.IN_PROGRESS,
        lexicon="CSW",
        starts_on=timezone.localdate(),
        registration_opens_at=now - timedelta(days=30),
        registration_closes_at=now - timedelta(days=10),
    )


@pytest.fixture
def director(event):
    user = UserFactory()
    event.directors.add(user)
    return user


@pytest.fixture
def csw(staff):
    return services.import_lexicon(staff, "CSW", WORD_FILE)


# ---- import ----


def test_staff_import_a_lexicon_stored_as_one_compressed_blob(csw):
    assert (csw.name, csw.word_count, csw.version) == ("CSW", 6, 1)
    stored = Lexicon.objects.get()
    assert zlib.decompress(bytes(stored.words)) == b"CAT\nCATS\nDOG\nQAT\nQI\nZA"
    assert "CAT" in services.word_list(stored) and "CA" not in services.word_list(stored)


def test_reimporting_replaces_the_words_and_bumps_the_version(staff, csw):
    assert "DOG" in services.word_list(csw)
    again = services.import_lexicon(staff, "csw", b"ZO\nQI\n")
    assert (again.pk, again.name, again.version, again.word_count) == (csw.pk, "CSW", 2, 2)
    current = services.lexicon_named("CSW")
    assert "DOG" not in services.word_list(current) and "ZO" in services.word_list(current)


def test_a_file_with_bad_lines_is_refused_whole_naming_the_lines(staff, csw):
    with pytest.raises(services.LexiconImportError) as refused:
        services.import_lexicon(staff, "CSW", b"CAT\nDO G\nQI\nZA1\n")
    assert refused.value.bad_lines == [(2, "DO G"), (4, "ZA1")]
    assert "line 2" in refused.value.message and "line 4" in refused.value.message
    assert Lexicon.objects.get().version == 1  # unchanged


def test_an_empty_or_non_utf8_file_is_refused(staff):
    with pytest.raises(ServiceError, match="no words"):
        services.import_lexicon(staff, "NWL", b"\n\n")
    with pytest.raises(ServiceError, match="not UTF-8"):
        services.import_lexicon(staff, "NWL", b"CAT\n\xff\xfe\n")
    assert not Lexicon.objects.exists()


def test_only_association_staff_import(director):
    with pytest.raises(NotAllowed):
        services.import_lexicon(director, "CSW", WORD_FILE)


def test_the_staff_page_uploads_and_shows_bad_lines(client, staff):
    client.force_login(staff)
    url = reverse("wordjudge:lexicons")
    bad = client.post(url, {"name": "NWL", "file": SimpleUploadedFile("nwl.txt", b"CAT\n3DOG\n")})
    assert bad.status_code == 200 and "line 2" in bad.content.decode()
    good = client.post(url, {"name": "NWL", "file": SimpleUploadedFile("nwl.txt", WORD_FILE)}, follow=True)
    assert "NWL: 6 words imported." in good.content.decode()
    assert Lexicon.objects.get(name="NWL").word_count == 6


def test_the_staff_page_is_for_staff_only(client, director):
    client.force_login(director)
    assert client.get(reverse("wordjudge:lexicons")).status_code == 403


def test_the_admin_imports_through_the_service(client, staff):
    staff.is_superuser = True
    staff.save()
    client.force_login(staff)
    url = reverse("admin:wordjudge_lexicon_add")
    bad = client.post(url, {"name": "CSW", "file": SimpleUploadedFile("c.txt", b"CAT\nD-OG\n")})
    assert bad.status_code == 200 and "line 2" in bad.content.decode() and not Lexicon.objects.exists()
    client.post(url, {"name": "CSW", "file": SimpleUploadedFile("c.txt", WORD_FILE)})
    lexicon = Lexicon.objects.get()
    assert (lexicon.word_count, lexicon.version) == (6, 1)
    change = reverse("admin:wordjudge_lexicon_change", args=[lexicon.pk])
    assert client.get(change).status_code == 200
    client.post(change, {"name": "CSW", "file": SimpleUploadedFile("c.txt", b"ZO\n")})
    lexicon.refresh_from_db()
    assert (lexicon.word_count, lexicon.version) == (1, 2)


# ---- sessions and rulings ----


def test_open_gives_a_token_once_and_close_disables_it(director, event):
    session = services.open_judge(director, event)
    assert services.open_judge(director, event) == session
    assert services.session_for_token(session.token) == session
    services.close_judge(director, event)
    assert services.session_for_token(session.token) is None
    reopened = services.open_judge(director, event)
    assert reopened.token != session.token
    with pytest.raises(ServiceError, match="closed"):
        services.judge(session.token, "CAT")


def test_only_directors_open_or_close(event):
    with pytest.raises(NotAllowed):
        services.open_judge(UserFactory(), event)
    with pytest.raises(ServiceError, match="not open"):
        services.close_judge(event.owner, event)


def test_a_play_is_judged_as_a_whole_and_logged(director, event, csw):
    token = services.open_judge(director, event).token
    good = services.judge(token, "cat, qi za", board="7")
    bad = services.judge(token, "CATS QIS")
    assert (good.acceptable, good.words, good.board, good.lexicon_name, good.lexicon_version) == (
        True,
        "CAT QI ZA",
        7,
        "CSW",
        1,
    )
    assert (bad.acceptable, bad.words, bad.board) == (False, "CATS QIS", None)
    assert list(services.judgement_log(event)) == [bad, good]


def test_bad_input_is_refused_without_a_ruling(director, event, csw):
    token = services.open_judge(director, event).token
    with pytest.raises(ServiceError, match="letters only"):
        services.judge(token, "C4T")
    with pytest.raises(ServiceError, match="from 1 to"):
        services.judge(token, "CAT", board="0")
    assert not Judgement.objects.exists()


def test_without_the_events_lexicon_the_judge_says_so(director, event, staff):
    services.import_lexicon(staff, "NWL", WORD_FILE)
    token = services.open_judge(director, event).token
    with pytest.raises(ServiceError, match="No word list named CSW"):
        services.judge(token, "CAT")
    event.lexicon = ""
    event.save()
    with pytest.raises(ServiceError, match="names no lexicon"):
        services.judge(token, "CAT")


def test_the_list_is_loaded_once_per_version(director, event, csw, staff, django_assert_num_queries):
    token = services.open_judge(director, event).token
    services.judge(token, "CAT")
    # session, lexicon (without its words), insert: the words are not read again.
    with django_assert_num_queries(3):
        services.judge(token, "DOG")
    services.import_lexicon(staff, "CSW", b"DOG\n")
    with django_assert_num_queries(4):
        assert services.judge(token, "CAT").acceptable is False


# ---- pages ----


def test_the_tablet_needs_no_account_and_never_says_which_word(client, director, event, csw):
    token = services.open_judge(director, event).token
    url = reverse("wordjudge:tablet", args=[token])
    page = client.get(url)
    assert page.status_code == 200 and "Judge the play" in page.content.decode()
    answer = client.post(url, {"words": "cats qis", "board": "3"}, follow=True)
    html = answer.content.decode()
    assert "The play is NOT ACCEPTABLE" in html and "Board 3: CATS QIS" in html
    assert html.count("ACCEPTABLE") == 1
    answer = client.post(url, {"words": "za qi"}, follow=True)
    assert "The play is ACCEPTABLE" in answer.content.decode()
    assert Judgement.objects.count() == 2


def test_the_tablet_shows_input_errors_on_the_field(client, director, event, csw):
    url = reverse("wordjudge:tablet", args=[services.open_judge(director, event).token])
    page = client.post(url, {"words": "c@t"})
    assert page.status_code == 200 and "letters only" in page.content.decode()


def test_a_closed_or_unknown_token_shows_closed(client, director, event, csw):
    token = services.open_judge(director, event).token
    services.close_judge(director, event)
    for t in (token, "nonsense"):
        page = client.get(reverse("wordjudge:tablet", args=[t]))
        assert page.status_code == 404 and "closed" in page.content.decode()
    assert client.post(reverse("wordjudge:tablet", args=[token]), {"words": "CAT"}).status_code == 404


def test_the_tablet_says_when_the_lexicon_is_missing(client, director, event):
    url = reverse("wordjudge:tablet", args=[services.open_judge(director, event).token])
    html = client.get(url).content.decode()
    assert "No word list named CSW has been uploaded" in html and "Judge the play" not in html


def test_the_director_opens_sees_the_address_and_the_log_then_closes(client, director, event, csw):
    client.force_login(director)
    page = reverse("wordjudge:director", args=[event.slug])
    assert "Open the word judge" in client.get(page).content.decode()
    client.post(reverse("wordjudge:open", args=[event.slug]))
    session = JudgeSession.objects.get(event=event)
    services.judge(session.token, "CAT QIS", board=4)
    html = client.get(page).content.decode()
    assert session.token in html and "CAT QIS" in html and "NOT ACCEPTABLE" in html
    client.post(reverse("wordjudge:close", args=[event.slug]))
    session.refresh_from_db()
    assert session.closed_at is not None


def test_others_cannot_see_the_director_page(client, event):
    client.force_login(UserFactory())
    assert client.get(reverse("wordjudge:director", args=[event.slug])).status_code == 403
    assert client.post(reverse("wordjudge:open", args=[event.slug])).status_code == 403
    assert not JudgeSession.objects.exists()


def test_the_demo_has_a_small_word_list_the_judge_rules_with(client):
    """After `make run` the judge worked nowhere: "No word list named CSW has been uploaded". The demo uploads
    its own small list, through the upload service, under the name its events give (issue 23, defect N10)."""
    import io

    from django.apps import apps

    from events.models import Event
    from players import demo as members_demo
    from players.models import User

    out = io.StringIO()
    members_demo.load(out)
    for config in apps.get_app_configs():
        if hasattr(config, "load_demo"):
            config.load_demo(out)
    assert "a demo list of a few hundred common words" in out.getvalue()
    lexicon = Lexicon.objects.get(name="CSW")
    assert 300 <= lexicon.word_count <= 1000 and lexicon.version == 1
    event = Event.objects.get(title="Jurong Green Students' Scrabble Championship")
    assert event.lexicon == "CSW"
    client.force_login(User.objects.get(email="director@example.org"))
    page = client.get(reverse("wordjudge:director", args=[event.slug])).content.decode()
    assert "No word list named" not in page and "Lexicon <strong>CSW</strong>" in page
    client.post(reverse("wordjudge:open", args=[event.slug]))
    token = JudgeSession.objects.get(event=event).token
    services.forget_cached_lists()
    assert services.judge(token, "house water").acceptable
    assert not services.judge(token, "house xyzzy").acceptable

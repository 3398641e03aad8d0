"""Hostile ratings files: every bad line is refused by number, on the page and in the service, and
nothing of the file is saved. The parser never raises and never returns what a column cannot hold."""

import unicodedata

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings import services
from ratings.models import RatingImport, RatingImportLine
from ratings.services.imports import MAX_GAMES, MAX_NAME, MAX_RANK, MAX_RATING, ImportFileError
from tests.factories import UserFactory

from .factories import RatingListFactory

GOOD = "Adrian Goh\t1422\t-\t-\t38\n"
HUGE = str(10**30)

BAD_LINES = [
    ("Tan Wei\x00Ling\t1850\t1\t-\t412", "control character"),
    ("Tan Wei Ling\t1850\t1\t-\t\x00412", "games"),
    (f"Tan Wei Ling\t{HUGE}\t1\t-\t412", "rating"),
    (f"Tan Wei Ling\t1850\t{HUGE}\t-\t412", "rank"),
    (f"Tan Wei Ling\t1850\t1\t-\t{HUGE}", "games"),
    (f"Tan Wei Ling\t1850\t1\t-\t{'9' * 5000}", "games"),
    (f"{'Tan ' * 60}Ling\t1850\t1\t-\t412", f"longer than {MAX_NAME}"),
    (",\t1850\t1\t-\t412", "no letters"),
    ("Tan Wei Ling\t١٨٥٠\t1\t-\t412", "rating"),  # digits, but not 0-9
    ("Tan Wei Ling\t1850\t1\t2026-02-30\t412", "expiry"),
]


@pytest.fixture
def staff():
    return UserFactory(is_staff=True)


@pytest.mark.django_db
@pytest.mark.parametrize(("line", "what"), BAD_LINES)
def test_a_bad_line_is_refused_by_number_and_nothing_is_saved(staff, line, what):
    rating_list = RatingListFactory()
    with pytest.raises(ImportFileError) as refused:
        services.prepare_rating_import(staff, rating_list, GOOD + line + "\n")
    assert refused.value.errors[0][0] == 2
    assert "line 2: " in refused.value.message and what in refused.value.message
    assert len(refused.value.message) < 500  # a huge value is not echoed back whole
    assert not RatingImport.objects.exists() and not RatingImportLine.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(("line", "what"), BAD_LINES)
def test_the_upload_page_answers_a_bad_line_with_a_report(client, staff, line, what):
    rating_list = RatingListFactory()
    client.force_login(staff)
    response = client.post(
        reverse("ratings:import", args=[rating_list.slug]),
        {"file": SimpleUploadedFile("ratings.txt", (GOOD + line + "\n").encode()), "as_of": "2026-01-01"},
    )
    assert response.status_code == 200
    assert "Nothing was imported" in response.content.decode() and "line 2: " in response.content.decode()
    assert not RatingImport.objects.exists()


@pytest.mark.django_db
def test_a_nul_in_the_file_name_or_a_latin_1_file_is_not_a_server_error(client, staff):
    rating_list = RatingListFactory()
    client.force_login(staff)
    url = reverse("ratings:import", args=[rating_list.slug])
    data = "Zoë Tan\t1500\t-\t-\t3\n".encode("latin-1")
    response = client.post(url, {"file": SimpleUploadedFile("rat\x00ings.txt", data)})  # no as_of: asked for
    assert response.status_code == 200 and not RatingImport.objects.exists()
    response = client.post(url, {"file": SimpleUploadedFile("rat\x00ings.txt", data), "as_of": "2026-01-01"})
    assert response.status_code == 302
    imp = RatingImport.objects.get()
    assert "\x00" not in imp.filename and imp.lines.get().name == "Zoë Tan"


def test_lines_are_numbered_as_an_editor_shows_them():
    """Only \\n, \\r\\n and \\r end a line: a form feed or a Unicode line separator inside a line is a space
    in a name, and does not shift the numbers of the lines after it."""
    text = "Tan\x0cWei\t1850\t1\t-\t4\r\nOng\u2028Mei\t1400\t5\t-\t3\rYeo Jun\t1300\t-\t-\tx\n"
    lines, errors = services.parse_rating_file(text)
    assert [(p.line_number, p.name) for p in lines] == [(1, "Tan Wei"), (2, "Ong Mei")]
    assert [n for n, _ in errors] == [3]


def test_a_file_with_too_many_players_is_refused_at_the_first_line_over():
    text = "".join(f"Player {i}\t1500\t-\t-\t1\n" for i in range(services.imports.MAX_LINES + 2))
    lines, errors = services.parse_rating_file(text)
    assert errors[0][0] == services.imports.MAX_LINES + 1 and "at most" in errors[0][1]


# --- fuzz -----------------------------------------------------------------------------------------

NUMBERS = st.one_of(
    st.integers(min_value=-5, max_value=10**31).map(str),
    st.sampled_from(["-", "", "0", "00", "1e3", "٣", "²", "+5", " 7", "9" * 5000]),
    st.text(max_size=12),
)
LINE = st.one_of(
    st.text(max_size=300),
    st.tuples(
        st.text(min_size=0, max_size=260),
        NUMBERS,
        NUMBERS,
        st.one_of(st.sampled_from(["-", "2026-12-31", "20261231", "0000-00-00", "9999-12-31"]), st.text(max_size=12)),
        NUMBERS,
        st.sampled_from(["\t", " ", "  "]),
    ).map(lambda t: t[5].join(t[:5])),
)
FILES = st.lists(LINE, max_size=12).flatmap(
    lambda lines: st.sampled_from(["\n", "\r\n", "\r"]).map(lambda end: end.join(lines))
)


def _fits(line) -> bool:
    return (
        0 < len(line.name) <= MAX_NAME
        and line.name == line.name.strip()
        and not any(unicodedata.category(c) in ("Cc", "Cs") for c in line.name)
        and 1 <= line.rating <= MAX_RATING
        and (line.rank is None or 1 <= line.rank <= MAX_RANK)
        and 0 <= line.games <= MAX_GAMES
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(FILES)
def test_the_parser_never_raises_and_keeps_every_value_in_its_column(text):
    lines, errors = services.parse_rating_file(text)
    assert lines or errors
    count = len(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    for line in lines:
        assert 1 <= line.line_number <= count and _fits(line), line
    for number, reason in errors:
        assert 0 <= number <= count and reason and len(reason) < 300


@pytest.mark.django_db
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(text=FILES)
def test_preparing_any_file_saves_all_of_it_or_nothing(staff, text):
    rating_list = RatingListFactory()
    try:
        imp = services.prepare_rating_import(staff, rating_list, text)
    except ImportFileError:
        assert not RatingImport.objects.filter(rating_list=rating_list).exists()
    else:
        assert imp.lines.count() == len(services.parse_rating_file(text)[0])

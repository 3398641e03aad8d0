"""A teacher's class list, pasted or uploaded: a file over the limit is refused whole (never cut), its encoding is
decided on the whole file (a name like Zoë is never misread), and a line with a quote never closed or with no date of
birth is refused by its line number, every such line at once; then nobody is entered."""

from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from events.forms.entering import MAX_CLASS_LIST_BYTES, ClassListError, parse_class_list, read_class_file
from events.models import Entry
from players.models import Player
from tests.events.factories import fast_passwords  # noqa: F401
from tests.events.test_entry_doors import PRIMARY, students_event
from tests.events.test_entry_pages import group_form
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(client):
    event, _, _ = students_event()
    client.force_login(UserFactory())
    return event


def born(event, age=9) -> str:
    return f"{date(event.starts_on.year - age, 5, 4):%d/%m/%Y}"


def upload(client, event, data: bytes, name="class.csv"):
    form = group_form(class_file=SimpleUploadedFile(name, data, content_type="text/csv"))
    return client.post(reverse("events:enter_group", args=[event.slug]), form, follow=True)


def paste(client, event, text: str):
    return client.post(reverse("events:enter_group", args=[event.slug]), group_form(class_list=text), follow=True)


def test_a_file_over_the_limit_is_refused_whole_saying_the_limit(client, event):
    head = f"name,date of birth,category\nZoë Tan,{born(event)},P4\n"
    data = (head + "#" * (MAX_CLASS_LIST_BYTES + 10 - len(head.encode())) + "\n").encode()
    page = upload(client, event, data).content.decode()
    assert f"is {len(data):,} bytes; a class list may be at most 200,000 bytes (200 kB)" in page
    assert not Entry.objects.exists() and not Player.objects.filter(full_name__startswith="Zo").exists()


def test_a_utf8_name_cut_at_the_old_limit_is_read_as_utf8_not_as_cp1252(client, event):
    """200,000 bytes were read and the rest dropped: a cut through "ë" made the whole file read as cp1252."""
    line = f"Zoë Tan,{born(event)},P4\n"
    padding = "\n" * (MAX_CLASS_LIST_BYTES - len(line.encode()) - 1)  # blank lines are skipped
    data = (line + padding + "ë").encode()
    assert len(data) == MAX_CLASS_LIST_BYTES + 1 and data[MAX_CLASS_LIST_BYTES - 1 :] == "ë".encode()
    assert "200,001 bytes" in upload(client, event, data).content.decode()  # refused, not cut
    response = upload(client, event, line.encode())
    assert "1 student entered." in response.content.decode()
    assert Entry.objects.get().player.full_name == "Zoë Tan"


@pytest.mark.parametrize(
    ("encoding", "separator"),
    [
        ("utf-8", ","),
        ("utf-8-sig", ","),  # UTF-8 with a byte-order mark: Excel's "CSV UTF-8"
        ("cp1252", ","),  # Excel's plain "CSV" on Windows
        ("utf-16", "\t"),  # Excel's "Unicode text", with its byte-order mark
    ],
)
def test_the_encodings_a_spreadsheet_writes(client, event, encoding, separator):
    text = separator.join(["name", "date of birth", "category"]) + "\n"
    text += separator.join(["Zoë Tan", born(event), "P4"]) + "\n"
    response = upload(client, event, text.encode(encoding))
    assert "1 student entered." in response.content.decode()
    assert Entry.objects.get().player.full_name == "Zoë Tan"


def test_read_class_file_never_misreads_utf8_and_refuses_what_is_no_text():
    for text in ("Zoë", "Nguyễn Thị Ánh", "陈伟", "Zoë\u2019s"):
        assert read_class_file(text.encode()) == text
    assert read_class_file("Zoë".encode("cp1252")) == "Zoë"
    with pytest.raises(ValueError, match="neither UTF-8 nor Windows-1252"):
        read_class_file(b"Zo\x81 Tan")  # 0x81 is no character in Windows-1252


def test_an_unterminated_quote_is_refused_with_its_line_not_read_as_a_name(client, event):
    text = f'Name,Date of birth,Level\nAlice Ong,{born(event)},P4\n"unterminated, 2014\nBen Goh,{born(event)},P5'
    page = paste(client, event, text).content.decode()
    assert "Line 3: a quote (&quot;) opened on this line is never closed: close it, or take it out." in page
    assert not Entry.objects.exists() and not Player.objects.filter(full_name__contains="unterminated").exists()
    with pytest.raises(ClassListError) as refused:
        parse_class_list(text, list(event.categories.all()))
    assert refused.value.problems == [
        'Line 3: a quote (") opened on this line is never closed: close it, or take it out.'
    ]


def test_a_missing_date_of_birth_is_refused_with_its_line_and_nothing_is_saved(client, event):
    text = f"Alice Ong,{born(event)},P4\n\nBen Goh,,P5\nCai Li,{born(event)},P4\nDee Tan"
    page = paste(client, event, text).content.decode()
    assert "Line 3 (Ben Goh): give the date of birth, like 2014-03-25 or 25/03/2014." in page
    assert "Line 5 (Dee Tan): give the date of birth" in page  # every line refused is named at once
    assert not Entry.objects.exists() and not Player.objects.filter(full_name="Alice Ong").exists()


def test_a_nul_in_an_uploaded_list_is_refused_with_its_line(client, event):
    data = f"name,date of birth,category\nZoë\x00 Tan,{born(event)},{PRIMARY}\n".encode()
    page = upload(client, event, data).content.decode()
    assert "Line 2 has a NUL (a zero byte), which no class list has" in page
    assert not Entry.objects.exists()


def test_a_good_list_still_enters_everyone_named_by_line_in_refusals(client, event):
    text = f"Name\tDate of birth\tLevel\nAlice Ong\t{born(event)}\tP4\nOld Hand\t{born(event, 21)}\tP6"
    page = paste(client, event, text).content.decode()
    assert "Line 3 (Old Hand): Category B – Primary School Student is for primary school students" in page
    response = paste(client, event, text.replace(born(event, 21), born(event, 11)))
    assert "2 students entered." in response.content.decode()


def test_a_record_without_a_date_of_birth_is_proved_by_its_name_and_learns_the_date(client, event):
    """The site offers such a record as likely (a tsh file or an old list brought it in without a birthday); the
    teacher writes its member number, and the entry must then be possible: the same name proves it, a different
    name does not."""
    from tests.factories import PlayerFactory

    mei = PlayerFactory(full_name="Lim Mei Ling", family_name="Lim", date_of_birth=None, email="")
    wrong = paste(
        client, event, f"Name\tDate of birth\tLevel\tMember no.\nLim Mei\t{born(event)}\tP4\t{mei.member_number}"
    )
    assert "does not match member" in wrong.content.decode() and not Entry.objects.exists()
    right = paste(
        client, event, f"Name\tDate of birth\tLevel\tMember no.\nMei Ling Lim\t{born(event)}\tP4\t{mei.member_number}"
    )
    assert "1 student entered." in right.content.decode()
    assert Entry.objects.get().player == mei
    mei.refresh_from_db()
    assert mei.date_of_birth == date(event.starts_on.year - 9, 5, 4)
    assert Player.objects.filter(full_name__icontains="mei").count() == 1

"""Bank statements that are too long: a line past any bank's is refused naming it (never a 500 from csv's field
limit); a long statement's review is paged, its totals on top; one naming many references is matched in the
background with a progress bar; a 100,000-line statement is read and reviewed well inside the worker's timeout."""

import time
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from events.models import EntryStatus
from events.services.payments import entry_reference
from money.core.references import make_reference
from money.core.statements import MAX_LINE, parse_statement
from money.models import Payment, Statement
from money.services import MoneyError
from money.services import statement_matching as matching
from money.services import statements as reconcile
from money.views.statements import REVIEW_PAGE_SIZE
from tests.events.factories import fast_passwords  # noqa: F401
from tests.factories import UserFactory
from tests.money.test_ledger import entered, seed_event

pytestmark = pytest.mark.django_db

WORKER_TIMEOUT = 60  # seconds: gunicorn's --timeout in the Procfile
HEADER = "date,amount,description\n"


@pytest.fixture
def staff():
    return UserFactory(is_staff=True)


def day() -> str:
    return (timezone.localdate() - timedelta(days=3)).isoformat()


# A line longer than any bank's ------------------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["body", "header", "skipped"])
def test_a_line_over_128_kib_is_refused_naming_it(where):
    long = "x" * (128 * 1024 + 10)
    text = {
        "body": f"{HEADER}2024-01-05,3.00,ok\n2024-01-06,3.00,{long}\n",
        "header": f"date,amount,description,{long}\n2024-01-05,3.00,ok\n",
        "skipped": f"Account {long}\n{HEADER}2024-01-05,3.00,ok\n",
    }[where]
    line = {"body": 3, "header": 1, "skipped": 1}[where]
    with pytest.raises(ValueError, match=rf"^Line {line} is 131,\d{{3}} characters long; .* at most {MAX_LINE:,}\."):
        parse_statement(text)


def test_a_quote_running_on_past_the_field_limit_is_refused_naming_the_line_it_opens_on():
    text = HEADER + '2024-01-05,3.00,"opened\n' + ("y" * 5000 + "\n") * 30 + '"\n2024-01-07,4.00,fine\n'
    with pytest.raises(ValueError, match=r"^Line 2: a quote opened on this line runs on for more than 131,072"):
        parse_statement(text)


def test_the_upload_page_refuses_a_long_line_with_the_line_and_keeps_nothing(staff, client):
    event, _, _, _ = seed_event()
    client.force_login(staff)
    data = f"{HEADER}{day()},3.00,ok\n{day()},3.00,{'x' * 140_000}\n".encode()
    response = client.post(
        reverse("money:statements"),
        {"file": SimpleUploadedFile("big.csv", data), "association": event.association.pk},
    )
    assert response.status_code == 200
    assert "Line 3 is 140,017 characters long" in response.content.decode()
    assert not Statement.objects.exists()
    with pytest.raises(MoneyError, match="Line 3 is 140,017 characters long") as refused:
        reconcile.upload(staff, event.association, "big.csv", data)
    assert refused.value.field == "file"


# A long statement -------------------------------------------------------------------------------------------------


def test_the_review_is_paged_with_the_totals_of_every_line_on_top(staff, client):
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    lines = [f"{day()},3.00,{entry_reference(entry)}"] + [f"{day()},1.00,PAYNOW X{i}" for i in range(249)]
    statement = reconcile.upload(staff, event.association, "long.csv", (HEADER + "\n".join(lines)).encode())
    client.force_login(staff)
    url = reverse("money:statement", args=[statement.pk])
    first = client.get(url).content.decode()
    assert first.count('<tr id="line-') == REVIEW_PAGE_SIZE
    assert 'id="line-2"' in first and 'id="line-101"' in first and 'id="line-102"' not in first
    assert "Page 1 of 3" in first
    totals = first[first.index('id="totals"') : first.index("</table>", first.index('id="totals"'))]
    assert '>paid in full</a></td><td class="text-end">1</td><td class="text-end">3.00</td>' in totals
    assert '>reference unknown</a></td><td class="text-end">249</td><td class="text-end">249.00</td>' in totals
    assert "Confirm and record 1 payment" in first  # what confirming does counts every page
    last = client.get(url + "?page=3").content.decode()
    assert last.count('<tr id="line-') == 50 and 'id="line-251"' in last
    unknown = client.get(url + "?outcome=reference+unknown").content.decode()
    assert 'id="line-2"' not in unknown and 'id="line-3"' in unknown and "Page 1 of 3" in unknown
    # Assigning a line by hand comes back to the page it was on.
    back = client.post(
        reverse("money:statement-assign", args=[statement.pk]),
        {"line": 150, "reference": "", "page": 2, "outcome": "reference unknown"},
    )
    assert back["Location"] == f"{url}?outcome=reference+unknown&page=2#line-150"


def test_a_statement_naming_many_references_is_matched_in_the_background(staff, client, on_commit, monkeypatch):
    monkeypatch.setattr(matching, "SYNC_LOOKUPS", 3)
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    others = [make_reference("E", 900_000 + i) for i in range(5)]
    lines = [f"{day()},3.00,{entry_reference(entry)}"] + [f"{day()},2.00,{ref}" for ref in others]
    statement = reconcile.upload(staff, event.association, "many.csv", (HEADER + "\n".join(lines)).encode())
    client.force_login(staff)
    url = reverse("money:statement", args=[statement.pk])
    progress = reverse("money:statement-matching", args=[statement.pk])

    with on_commit() as queued:
        page = client.get(url).content.decode()
        client.get(url)  # looking again queues nothing more
    assert len(queued) == 1
    assert "being looked up in the background" in page and f'data-progress-url="{progress}"' in page
    assert "0 of 6 references looked up" in page and '<tr id="line-' not in page
    assert client.get(progress).json() == {
        "progress": 0,
        "status_display": "0 of 6 references looked up",
        "error": "",
        "finished": False,
    }
    with pytest.raises(MoneyError, match="being matched again"):  # confirming waits for the matching
        matching.confirm(staff, statement)

    queued[0]()  # the task runs
    assert client.get(progress).json()["finished"] is True
    page = client.get(url).content.decode()
    assert page.count('<tr id="line-') == 6 and "Matched against what was due at" in page
    assert '>paid in full</a></td><td class="text-end">1</td>' in page

    # A reference assigned by hand since is looked up at once; the rest is read from the matching kept.
    late = entered(event, category, standard)
    reconcile.assign(staff, statement, 3, entry_reference(late))
    statement.refresh_from_db()
    review = matching.review_or_matching(statement)
    assert [row.outcome for row in review.rows[:2]] == ["paid in full", "partly paid"]
    done = matching.confirm(staff, statement)
    assert len(done.counted) == 2 and Payment.objects.count() == 2
    entry.refresh_from_db()
    assert entry.status == EntryStatus.CONFIRMED


def test_confirming_a_long_statement_whose_matching_expired_matches_it_again_first(staff, on_commit, monkeypatch):
    monkeypatch.setattr(matching, "SYNC_LOOKUPS", 1)
    event, category, standard, _ = seed_event()
    lines = [f"{day()},3.00,{entry_reference(entered(event, category, standard))}" for _ in range(2)]
    statement = reconcile.upload(staff, event.association, "two.csv", (HEADER + "\n".join(lines)).encode())
    with on_commit(execute=True):
        assert isinstance(matching.review_or_matching(statement), matching.Matching)
    assert isinstance(matching.review_or_matching(statement), reconcile.Review)
    cache.delete(reconcile.lookups_key(statement))  # an hour later
    with on_commit() as queued, pytest.raises(MoneyError, match="2 references: they are being matched again"):
        matching.confirm(staff, statement)
    assert len(queued) == 1 and Payment.objects.count() == 0


def test_one_confirmation_records_at_most_max_recorded_payments(staff, monkeypatch):
    monkeypatch.setattr(reconcile, "MAX_RECORDED", 2)
    event, category, standard, _ = seed_event()
    lines = [f"{day()},3.00,{entry_reference(entered(event, category, standard))}" for _ in range(3)]
    statement = reconcile.upload(staff, event.association, "three.csv", (HEADER + "\n".join(lines)).encode())
    with pytest.raises(MoneyError, match="would record 3 payments; one confirmation records at most 2"):
        reconcile.confirm(staff, statement)
    assert Payment.objects.count() == 0 and Statement.objects.get().confirmed_at is None


def test_a_100000_line_statement_is_read_and_its_review_shown_well_inside_the_worker_timeout(staff, client):
    """2.5 MB, under the upload limit: the review page took longer than the worker's timeout before it was paged."""
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    lines = [f"{day()},3.00,{entry_reference(entry)}"] + [f"{day()},3.00,PAYNOW FROM X" for _ in range(99_999)]
    data = (HEADER + "\n".join(lines) + "\n").encode()
    assert len(data) < reconcile.MAX_BYTES
    client.force_login(staff)
    started = time.monotonic()
    response = client.post(
        reverse("money:statements"), {"file": SimpleUploadedFile("year.csv", data), "association": event.association.pk}
    )
    uploaded = time.monotonic()
    page = client.get(response["Location"]).content.decode()
    shown = time.monotonic()
    assert page.count('<tr id="line-') == REVIEW_PAGE_SIZE and "Page 1 of 1000" in page
    assert '>reference unknown</a></td><td class="text-end">99999</td>' in page
    assert uploaded - started < WORKER_TIMEOUT / 4, f"upload took {uploaded - started:.1f}s"
    assert shown - uploaded < WORKER_TIMEOUT / 4, f"the review page took {shown - uploaded:.1f}s"


def test_a_matching_the_cache_cannot_keep_says_so_rather_than_starting_again(staff, client, on_commit, monkeypatch):
    monkeypatch.setattr(matching, "SYNC_LOOKUPS", 1)
    monkeypatch.setattr(matching, "kept_lookups", lambda statement: None)  # as memcached refuses a value over 1 MB
    event, _, _, _ = seed_event()
    lines = [f"{day()},2.00,{make_reference('E', 900_000 + i)}" for i in range(3)]
    statement = reconcile.upload(staff, event.association, "many.csv", (HEADER + "\n".join(lines)).encode())
    client.force_login(staff)
    with on_commit(execute=True) as queued:
        client.get(reverse("money:statement", args=[statement.pk]))
    with on_commit() as again:
        page = client.get(reverse("money:statement", args=[statement.pk])).content.decode()
    assert len(queued) == 1 and again == []
    assert "The matching of 3 references is too large for the site&#x27;s cache: upload it in parts." in page
    progress = client.get(reverse("money:statement-matching", args=[statement.pk])).json()
    assert progress["error"].startswith("The matching of 3 references") and progress["finished"] is False

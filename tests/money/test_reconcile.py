"""Bank statement reconciliation: the treasurer uploads the bank's CSV, reviews each credit matched by reference
and amount (nothing saved), assigns unmatched lines by hand and confirms; importing a statement again counts
nothing twice. The same through the command line."""

from datetime import date, timedelta
from decimal import Decimal
from io import StringIO

import pytest
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from clubsite.kit.errors import NotAllowed
from events import services as events
from events.models import Entry, EntryStatus, GroupEntry
from events.services.payments import entry_reference, group_reference
from money.core.references import make_reference
from money.models import Action, MoneyLog, Payment, Statement
from money.payables import due_for
from money.services import MoneyError
from money.services import statements as reconcile
from tests.events.factories import fast_passwords  # noqa: F401
from tests.factories import UserFactory
from tests.money.test_ledger import entered, seed_event

pytestmark = pytest.mark.django_db

DBS_SPEC = (
    "date=Transaction Date; credit=Credit Amount; debit=Debit Amount; "
    "description=Transaction Ref1,Transaction Ref2,Transaction Ref3; skip=6; date_format=%d %b %Y"
)


@pytest.fixture
def staff():
    return UserFactory(is_staff=True)


def group_of_three(event, category, standard, passion):
    """S$3 + S$2 + S$3 = S$8."""
    students = [
        {"full_name": f"Student {i}", "category": category, "fee": passion if i == 1 else standard,
         "concession_proof": "P1" if i == 1 else "", "date_of_birth": date(2010, 1, 1)}
        for i in range(3)
    ]  # fmt: skip
    return events.register_group(
        UserFactory(), event, accept_rules=True,
        contact={"role": GroupEntry.Role.TEACHER, "contact_name": "Mrs Tan", "school": "Yuhua", "address": "1 Road",
                 "phone": "61234567", "email": "teacher@example.org"},
        students=students,
    )  # fmt: skip


@pytest.fixture
def world():
    """An entry owing S$3, a group owing S$8, a Passion Card entry owing S$2, and a statement paying them."""
    event, category, standard, passion = seed_event()
    full = entered(event, category, standard)
    group = group_of_three(event, category, standard, passion)
    over = entered(event, category, passion, concession_proof="P9")
    day = (timezone.localdate() - timedelta(days=3)).isoformat()
    csv = (
        "date,amount,description\n"
        f"{day},3.00,PAYNOW TRF FROM TAN AH KOW OTHR {entry_reference(full)}\n"
        f"{day},5.00,GIRO YUHUA SEC {group_reference(group)}\n"
        f"{day},5.00,PAYNOW OTHR {entry_reference(over).lower()} SCRABBLE\n"
        f"{day},10.00,PAYNOW FROM LIM BEE LEAN\n"
        f"{day},-12.00,BANK CHARGES\n"
        f"{day},4.00,FAST {make_reference('E', 987654)}\n"
    )
    return {"event": event, "full": full, "group": group, "over": over, "csv": csv.encode(), "day": day}


def outcomes(review):
    return [(row.line_no, row.reference, row.amount, row.label) for row in review.rows]


def test_the_review_matches_each_line_by_reference_and_amount_and_saves_nothing(world, staff):
    statement = reconcile.upload(staff, world["event"].association, "jan.csv", world["csv"])
    review = reconcile.review(statement)
    full, group, over = world["full"], world["group"], world["over"]
    assert outcomes(review) == [
        (2, entry_reference(full), Decimal("3.00"), "paid in full"),
        (3, group_reference(group), Decimal("5.00"), "partly paid"),
        (4, entry_reference(over), Decimal("5.00"), "overpaid"),
        (5, "", Decimal("10.00"), "reference unknown"),
        (6, "", Decimal("-12.00"), "not a credit"),
        (7, make_reference("E", 987654), Decimal("4.00"), "reference unknown"),
    ]
    assert review.rows[1].due.balance == Decimal("8.00") and review.rows[1].due.title.startswith("Group entry")
    assert review.rows[3].why == "No reference in the description."
    assert review.rows[5].why == f"{make_reference('E', 987654)} names nothing due."
    totals = {t.outcome: (t.count, t.amount) for t in review.totals}
    assert totals["paid in full"] == (1, Decimal("3.00")) and totals["reference unknown"] == (2, Decimal("14.00"))
    assert totals["already imported"] == (0, 0)
    assert Payment.objects.count() == 0 and MoneyLog.objects.count() == 0
    full.refresh_from_db()
    assert full.status == EntryStatus.PENDING_PAYMENT and statement.confirmed_at is None


def test_confirming_pays_them_issues_receipts_and_a_second_import_counts_nothing_twice(world, staff, on_commit):
    association = world["event"].association
    statement = reconcile.upload(staff, association, "jan.csv", world["csv"])
    mail.outbox = []
    with on_commit(execute=True):
        done = reconcile.confirm(staff, statement)
    full, over = Entry.objects.get(pk=world["full"].pk), Entry.objects.get(pk=world["over"].pk)
    assert full.status == EntryStatus.CONFIRMED and full.amount_paid == Decimal("3.00")
    assert over.status == EntryStatus.CONFIRMED and over.amount_paid == Decimal("2.00")
    assert due_for(group_reference(world["group"]))[1].balance == Decimal("3.00")
    payments = {p.reference: p for p in Payment.objects.all()}
    assert len(payments) == 3 and payments[entry_reference(over)].held == Decimal("3.00")
    first = payments[entry_reference(full)]
    assert first.method == "paynow" and first.received_on.isoformat() == world["day"]  # the line says PAYNOW
    assert first.payer_name == "Tan Ah Kow" and first.note == "Bank statement jan.csv, line 2"
    assert len(mail.outbox) == 3 and all(m.subject.startswith("[Scrabble Association] Receipt ") for m in mail.outbox)
    statement.refresh_from_db()
    assert statement.confirmed_by == staff and statement.summary["counted"] == 3
    assert statement.summary["amount"] == "13.00"
    assert [line["receipt"] for line in statement.summary["lines"]][:3] == [r.payment.number for r in done.rows[:3]]
    log = MoneyLog.objects.get(action=Action.STATEMENT)
    assert log.amount == Decimal("13.00") and log.why == "jan.csv: 3 payment(s) from 6 line(s)"

    with pytest.raises(MoneyError, match="already|confirmed"):
        reconcile.confirm(staff, statement)
    again = reconcile.upload(staff, association, "jan (1).csv", world["csv"])
    review = reconcile.review(again)
    assert [row.outcome for row in review.rows][:3] == ["already imported"] * 3
    assert review.rows[0].payment == first
    second = reconcile.confirm(staff, again)
    assert second.counted == () and Payment.objects.count() == 3
    full.refresh_from_db()
    assert full.amount_paid == Decimal("3.00")
    assert due_for(group_reference(world["group"]))[1].balance == Decimal("3.00")


def test_an_unmatched_line_assigned_by_hand_is_then_counted(world, staff):
    event, category, standard, _ = seed_event()
    late = entered(event, category, standard)
    statement = reconcile.upload(staff, world["event"].association, "jan.csv", world["csv"])
    with pytest.raises(MoneyError, match="No amount due") as refused:
        reconcile.assign(staff, statement, 5, "E000001X")
    assert refused.value.field == "reference"
    with pytest.raises(MoneyError, match="not a credit"):
        reconcile.assign(staff, statement, 6, entry_reference(late))
    with pytest.raises(MoneyError, match="Line 99 is not"):
        reconcile.assign(staff, statement, 99, entry_reference(late))
    reconcile.assign(staff, statement, 5, entry_reference(late).lower())
    statement.refresh_from_db()
    assert statement.assignments == {"5": entry_reference(late)}
    row = reconcile.review(statement).rows[3]
    assert (row.reference, row.assigned, row.label) == (entry_reference(late), True, "overpaid")
    reconcile.assign(staff, statement, 5, "")
    statement.refresh_from_db()
    assert statement.assignments == {} and reconcile.review(statement).rows[3].outcome == "reference unknown"
    reconcile.assign(staff, statement, 5, entry_reference(late))
    reconcile.confirm(staff, statement)
    late.refresh_from_db()
    payment = Payment.objects.get(reference=entry_reference(late))
    assert late.status == EntryStatus.CONFIRMED and payment.amount == Decimal("10.00") and payment.held == Decimal("7")
    assert payment.payer_name == "Lim Bee Lean"
    with pytest.raises(MoneyError, match="confirmed"):
        reconcile.assign(staff, statement, 7, entry_reference(late))


def test_a_transfer_for_a_lapsed_entry_is_held_for_the_organiser(staff, time_machine):
    event, category, standard, _ = seed_event(quota=1)
    entry = entered(event, category, standard)
    Entry.objects.filter(pk=entry.pk).update(payment_due_at=entry.accepted_at + timedelta(hours=1))
    time_machine.move_to(entry.accepted_at + timedelta(hours=2))
    csv = f"date,amount,description\n{timezone.localdate().isoformat()},3.00,{entry_reference(entry)}\n"
    statement = reconcile.upload(staff, event.association, "late.csv", csv.encode())
    row = reconcile.review(statement).rows[0]
    assert row.outcome == "not payable" and row.label.startswith("not payable: This entry is lapsed")
    reconcile.confirm(staff, statement)
    entry.refresh_from_db()
    payment = Payment.objects.get()
    assert entry.status == EntryStatus.LAPSED and payment.held == Decimal("3.00") and payment.applied == 0


def test_two_lines_for_one_entry_in_one_file_are_counted_in_turn(staff):
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    day = (timezone.localdate() - timedelta(days=1)).isoformat()
    csv = f"date,amount,description\n{day},2.00,{entry_reference(entry)}\n{day},2.00,{entry_reference(entry)}\n"
    statement = reconcile.upload(staff, event.association, "twice.csv", csv.encode())
    assert [row.outcome for row in reconcile.review(statement).rows] == ["partly paid", "overpaid"]
    reconcile.confirm(staff, statement)
    assert sorted(p.held for p in Payment.objects.all()) == [Decimal("0"), Decimal("1.00")]


def test_a_dbs_like_export_through_a_mapping(staff):
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    day = (timezone.localdate() - timedelta(days=2)).strftime("%d %b %Y")
    export = (
        "Account Details For:,POSB eSavings Account 123-45678-9\r\n"
        f"Statement as at:,{day}\r\n"
        'Available Balance:,"4,567.89"\r\n'
        'Ledger Balance:,"4,567.89"\r\n'
        ",\r\n"
        "\r\n"
        "Transaction Date,Reference,Debit Amount,Credit Amount,Transaction Ref1,Transaction Ref2,Transaction Ref3\r\n"
        f"{day},ICT, ,3.00,PayNow Transfer,From: TAN AH KOW,OTHR {entry_reference(entry)}\r\n"
        f"{day},POS,45.10, ,NETS QR PAYMENT,STARBUCKS,\r\n"
    )
    with pytest.raises(MoneyError, match="Line 1, the header, has no column 'date'") as refused:
        reconcile.upload(staff, event.association, "dbs.csv", export.encode())
    assert refused.value.field == "file"
    with pytest.raises(MoneyError, match="Unknown key 'colour'") as refused:
        reconcile.upload(staff, event.association, "dbs.csv", export.encode(), "colour=blue")
    assert refused.value.field == "mapping"
    statement = reconcile.upload(staff, event.association, "dbs.csv", export.encode(), DBS_SPEC)
    assert statement.mapping == DBS_SPEC
    assert outcomes(reconcile.review(statement)) == [
        (8, entry_reference(entry), Decimal("3.00"), "paid in full"),
        (9, "", Decimal("-45.10"), "not a credit"),
    ]
    reconcile.confirm(staff, statement)
    assert Payment.objects.get().payer_name == "Tan Ah Kow"


def test_a_bad_amount_is_reported_by_line_and_nothing_is_saved_unless_the_rest_is_asked_for(staff):
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    day = (timezone.localdate() - timedelta(days=1)).isoformat()
    csv = f"date,amount,description\n{day},3.00,{entry_reference(entry)}\n{day},abc,x\nyesterday,1.00,y\n"
    statement = reconcile.upload(staff, event.association, "bad.csv", csv.encode())
    review = reconcile.review(statement)
    assert [e.message.split(" (like")[0] for e in review.errors] == [
        "line 3, amount: 'abc' is not an amount",
        "line 4, date: 'yesterday' is not a date",
    ]
    assert [row.line_no for row in review.rows] == [2]
    with pytest.raises(MoneyError, match="2 line\\(s\\) could not be read: line 3, amount: 'abc' is not an amount"):
        reconcile.confirm(staff, statement)
    statement.refresh_from_db()
    assert Payment.objects.count() == 0 and statement.confirmed_at is None
    with pytest.raises(MoneyError, match="No line of the file could be read: line 2, amount: 'abc'") as refused:
        reconcile.upload(staff, event.association, "worse.csv", f"date,amount,description\n{day},abc,x\n".encode())
    assert refused.value.field == "file"
    done = reconcile.confirm(staff, statement, with_errors=True)
    assert len(done.counted) == 1 and Statement.objects.get(pk=statement.pk).summary["errors"]


def test_the_command_with_and_without_dry_run(world, staff, tmp_path):
    path = tmp_path / "jan.csv"
    path.write_bytes(world["csv"])
    out = StringIO()
    call_command("reconcile_payments", str(path), "--dry-run", f"--as={staff.email}", stdout=out, stderr=StringIO())
    lines = out.getvalue().splitlines()
    assert lines[0] == "line,reference,amount,outcome"
    assert lines[1] == f"2,{entry_reference(world['full'])},3.00,paid in full"
    assert lines[5] == "6,,-12.00,not a credit" and len(lines) == 7
    assert Statement.objects.count() == 0 and Payment.objects.count() == 0

    out = StringIO()
    call_command(
        "reconcile_payments", str(path), f"--association={world['event'].association.slug}", f"--as={staff.email}",
        stdout=out, stderr=StringIO(),
    )  # fmt: skip
    assert out.getvalue().splitlines()[1:4] == [
        f"2,{entry_reference(world['full'])},3.00,paid in full",
        f"3,{group_reference(world['group'])},5.00,partly paid",
        f"4,{entry_reference(world['over'])},5.00,overpaid",
    ]
    assert Statement.objects.get().confirmed_by == staff and Payment.objects.count() == 3

    out = StringIO()
    staff.is_superuser = True
    staff.save()
    call_command("reconcile_payments", str(path), stdout=out, stderr=StringIO())  # as the first superuser
    assert out.getvalue().splitlines()[1] == f"2,{entry_reference(world['full'])},3.00,already imported"
    assert Payment.objects.count() == 3


def test_the_command_refuses_a_file_it_cannot_read_naming_the_line(tmp_path):
    UserFactory(is_staff=True, is_superuser=True)
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    day = (timezone.localdate() - timedelta(days=1)).isoformat()
    path = tmp_path / "bad.csv"
    path.write_text(f"date,amount,description\n{day},3.00,{entry_reference(entry)}\n{day},abc,x\n")
    err = StringIO()
    with pytest.raises(CommandError, match="1 line\\(s\\) of bad.csv could not be read: nothing was saved"):
        call_command("reconcile_payments", str(path), stdout=StringIO(), stderr=err)
    assert "line 3, amount: 'abc' is not an amount" in err.getvalue()
    assert Payment.objects.count() == 0 and Statement.objects.count() == 0
    path.write_text("when,how much\n")
    with pytest.raises(CommandError, match="Line 1, the header, has no column 'date'"):
        call_command("reconcile_payments", str(path), stdout=StringIO(), stderr=StringIO())
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("reconcile_payments", str(tmp_path / "missing.csv"), stdout=StringIO(), stderr=StringIO())


def test_the_pages_upload_review_assign_and_confirm(world, staff, client):
    client.force_login(staff)
    page = client.get(reverse("money:statements"))
    assert page.status_code == 200 and b"Transaction Ref1" in page.content
    response = client.post(
        reverse("money:statements"),
        {"file": SimpleUploadedFile("jan.csv", world["csv"]), "association": world["event"].association.pk},
    )
    statement = Statement.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("money:statement", args=[statement.pk])
    review = client.get(response["Location"]).content.decode()
    assert "nothing is saved until you confirm" in review and "partly paid" in review and "reference unknown" in review
    assert 'name="reference"' in review and Payment.objects.count() == 0

    bad = client.post(
        reverse("money:statement-assign", args=[statement.pk]), {"line": 5, "reference": "nope"}, follow=True
    )
    assert "No amount due has the reference" in bad.content.decode()
    client.post(
        reverse("money:statement-assign", args=[statement.pk]), {"line": 5, "reference": entry_reference(world["full"])}
    )
    statement.refresh_from_db()
    assert statement.assignments == {"5": entry_reference(world["full"])}

    done = client.post(reverse("money:statement-confirm", args=[statement.pk]), follow=True).content.decode()
    assert "4 payments recorded" in done
    number = Payment.objects.get(reference=group_reference(world["group"])).number
    assert f'href="/money/receipts/{number}/"' in done

    refused = client.post(
        reverse("money:statements"),
        {"file": SimpleUploadedFile("x.csv", b"when,how\n1,2\n"), "association": world["event"].association.pk},
    )
    assert refused.status_code == 200 and "Line 1, the header, has no column" in refused.content.decode()


def test_only_association_staff_may_reconcile(world, staff, client):
    statement = reconcile.upload(staff, world["event"].association, "jan.csv", world["csv"])
    member = world["full"].player.user
    organiser = world["event"].owner
    for user in (member, organiser):
        with pytest.raises(NotAllowed):
            reconcile.upload(user, world["event"].association, "jan.csv", world["csv"])
        with pytest.raises(NotAllowed):
            reconcile.assign(user, statement, 5, entry_reference(world["full"]))
        with pytest.raises(NotAllowed):
            reconcile.confirm(user, statement)
        client.force_login(user)
        assert client.get(reverse("money:statements")).status_code == 403
        assert client.get(reverse("money:statement", args=[statement.pk])).status_code == 403
        upload = {"file": SimpleUploadedFile("jan.csv", world["csv"]), "association": world["event"].association.pk}
        assert client.post(reverse("money:statements"), upload).status_code == 403
        assigned = {"line": 5, "reference": entry_reference(world["full"])}
        assert client.post(reverse("money:statement-assign", args=[statement.pk]), assigned).status_code == 403
        assert client.post(reverse("money:statement-confirm", args=[statement.pk])).status_code == 403
    client.logout()
    assert client.get(reverse("money:statements")).status_code == 302  # to the login page
    statement.refresh_from_db()
    assert Statement.objects.count() == 1 and statement.assignments == {} and Payment.objects.count() == 0


def test_a_future_date_or_an_amount_past_the_cent_is_reported_at_review_not_at_confirm(world, staff):
    from datetime import timedelta

    tomorrow = (timezone.localdate() + timedelta(days=1)).isoformat()
    reference = entry_reference(world["full"])
    data = f"date,amount,description\n{tomorrow},3.00,PAYNOW {reference}\n{world['day']},3.001,PAYNOW {reference}\n"
    statement = reconcile.upload(staff, world["event"].association, "odd.csv", data.encode())
    found = reconcile.review(statement)
    assert [str(e) for e in found.errors] == [
        f"line 2, date: {tomorrow} is in the future",
        "line 3, amount: 3.001 is not in dollars and cents",
    ]
    assert not found.rows and Payment.objects.count() == 0


def test_a_reference_with_a_slip_is_named_in_the_review(world, staff):
    good = entry_reference(world["full"])
    slip = good[:-1] + ("0" if good[-1] != "0" else "1")
    data = f"date,amount,description\n{world['day']},3.00,PAYNOW FROM TAN {slip}\n"
    statement = reconcile.upload(staff, world["event"].association, "slip.csv", data.encode())
    [row] = reconcile.review(statement).rows
    assert row.outcome == "reference unknown"
    assert row.why == f"{slip} looks like a reference, but a character is wrong: assign it by hand."


def test_an_upload_never_confirmed_can_be_discarded_but_a_confirmed_one_stays(world, staff, client):
    association = world["event"].association
    draft = reconcile.upload(staff, association, "draft.csv", world["csv"])
    client.force_login(UserFactory())
    assert client.post(reverse("money:statement-discard", args=[draft.pk])).status_code == 403
    client.force_login(staff)
    response = client.post(reverse("money:statement-discard", args=[draft.pk]), follow=True)
    assert "draft.csv is discarded" in response.content.decode() and not Statement.objects.filter(pk=draft.pk).exists()
    kept = reconcile.upload(staff, association, "jan.csv", world["csv"])
    reconcile.confirm(staff, kept, with_errors=True)
    with pytest.raises(MoneyError, match="A confirmed statement stays"):
        reconcile.discard(staff, kept)

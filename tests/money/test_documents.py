"""Receipts and credit notes: the tax in inclusive fees, reading a fee's note for its rate, and the documents
themselves, read back from the PDF."""

import dataclasses
import datetime
import io
import re
from decimal import Decimal

import pytest
from pypdf import PdfReader

from money.core.documents import DocLine, Document, Party, document_content, render_pdf, render_text
from money.core.tax import parse_rate, tax_included

D = Decimal
GST = D("9")

ISSUER = Party(
    "Singapore Scrabble Association",
    ("1 Example Road #01-01", "Singapore 123456", "UEN T00SS0000A", "GST Reg. No. M90000000A"),
)
PAYER = Party("Tan Wei Ming", ("weiming@example.com",))


def receipt(**overrides) -> Document:
    fields = dict(
        kind="receipt",
        number="SSA-2026-00001",
        issued=datetime.date(2026, 3, 5),
        issuer=ISSUER,
        payer=PAYER,
        lines=(
            DocLine("Open category, Burst Open 2026", D("3.00"), D("2.00"), "Passion Card concession"),
            DocLine("Lunch, Burst Open 2026", D("12.50"), D("12.50")),
        ),
        currency="SGD",
        total=D("14.50"),
        method="PayNow",
        reference="SSA7F3K9Q",
        tax_rate=GST,
        footer="Thank you for playing.",
    )
    return Document(**{**fields, **overrides})


def credit_note(**overrides) -> Document:
    fields = dict(
        kind="credit_note",
        number="SSA-CN-2026-00001",
        lines=(DocLine("Open category, Burst Open 2026", D("3.00"), D("2.00"), "Passion Card concession"),),
        total=D("2.00"),
        method="PayNow refund",
        reference="RF-0042",
        original_number="SSA-2026-00001",
        reason="Withdrew before the closing date",
    )
    return receipt(**{**fields, **overrides})


def pdf_text(data: bytes) -> str:
    """The PDF's text with its whitespace collapsed, so wrapped lines read as one."""
    reader = PdfReader(io.BytesIO(data))
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))


# Tax -----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "amount, rate, tax",
    [
        ("3.00", "9", "0.25"),  # 2.75 + 0.2477...
        ("2.00", "9", "0.17"),  # 1.83 + 0.1651...
        ("14.50", "9", "1.20"),
        ("109.00", "9", "9.00"),
        ("3.00", "0", "0.00"),
        ("0.00", "9", "0.00"),
        ("10.70", "7", "0.70"),
        ("-3.00", "9", "-0.25"),  # a refund's tax, negated
        ("-0.01", "9", "0.00"),  # never "-0.00"
        ("3.00", "8.5", "0.24"),
    ],
)
def test_tax_included_in_an_inclusive_amount(amount, rate, tax):
    result = tax_included(D(amount), D(rate))
    assert result == D(tax)
    assert str(result) == tax


def test_tax_rounds_half_up_to_cents():
    assert tax_included(D("1.09"), GST) == D("0.09")  # exactly 0.09
    assert tax_included(D("0.545"), D("9")) == D("0.05")  # 0.045 -> 0.05, not banker's 0.04


def test_tax_refuses_floats_and_negative_rates():
    with pytest.raises(TypeError):
        tax_included(3.0, GST)
    with pytest.raises(TypeError):
        tax_included(D("3.00"), 9.0)
    with pytest.raises(ValueError):
        tax_included(D("3.00"), D("-9"))


@pytest.mark.parametrize(
    "note, rate",
    [
        ("incl. GST", "9"),
        ("Incl GST", "9"),
        ("inclusive of GST", "9"),
        ("GST inclusive", "9"),
        ("GST-inclusive", "9"),
        ("GST included", "9"),
        ("includes GST", "9"),
        ("incl. 9% GST", "9"),
        ("incl. 8 % GST", "8"),
        ("inclusive of 9% GST", "9"),
        ("GST 9% inclusive", "9"),
        ("including GST at 9%", "9"),
        ("incl. 8.5% GST", "8.5"),
        ("incl. tax", "9"),
        ("incl. 9 per cent GST", "9"),
        ("Lunch provided, incl. GST", "9"),  # the clause that says it
        ("incl. GST, excl. lunch", "9"),
        ("10% off for members; incl. 9% GST", "9"),  # the figure in the GST clause, not the discount
    ],
)
def test_parse_rate_reads_an_included_tax(note, rate):
    assert parse_rate(note, default_rate=GST) == D(rate)


@pytest.mark.parametrize(
    "note",
    [
        "",
        "Passion Card concession",
        "Early bird",
        "incl. lunch",
        "excl. GST",
        "exclusive of GST",
        "excluding 9% GST",
        "plus GST",
        "+ GST",
        "before GST",
        "GST not included",
        "not incl. GST",
        "GST extra",
        "no GST",
        "GST-free",
        "10% off",
    ],
)
def test_parse_rate_gives_none_when_the_note_does_not_include_tax(note):
    assert parse_rate(note, default_rate=GST) is None


def test_parse_rate_without_a_default_or_figure_gives_none_and_a_figure_still_counts():
    assert parse_rate("incl. GST") is None
    assert parse_rate("incl. 9% GST") == D("9")
    assert isinstance(parse_rate("incl. 9% GST"), Decimal)


# Documents -------------------------------------------------------------------------------------------------------


def test_a_document_states_the_tax_in_its_total():
    assert receipt(total=D("2.00")).tax_included == D("0.17")
    assert receipt(tax_rate=None).tax_included is None
    assert receipt(tax_rate=D("0")).tax_included == D("0.00")


def test_documents_refuse_floats_unknown_kinds_and_credit_notes_without_their_receipt():
    with pytest.raises(TypeError):
        receipt(total=2.0)
    with pytest.raises(TypeError):
        DocLine("Open", 3.0, D("3.00"))
    with pytest.raises(ValueError):
        receipt(kind="proforma")
    with pytest.raises(ValueError):
        credit_note(original_number="")


def test_documents_are_frozen_and_hold_tuples():
    doc = receipt(lines=[DocLine("Open", D("3.00"), D("3.00"))])
    assert isinstance(doc.lines, tuple)
    hash(doc)
    with pytest.raises(dataclasses.FrozenInstanceError):
        doc.total = D("1.00")


def test_receipt_as_text():
    assert render_text(receipt()) == [
        "Receipt",
        "Receipt number: SSA-2026-00001",
        "Date: 5 March 2026",
        "Singapore Scrabble Association",
        "1 Example Road #01-01",
        "Singapore 123456",
        "UEN T00SS0000A",
        "GST Reg. No. M90000000A",
        "Received from: Tan Wei Ming",
        "weiming@example.com",
        "Open category, Burst Open 2026: SGD 2.00",
        "  Standard fee SGD 3.00, less Passion Card concession SGD 1.00",
        "Lunch, Burst Open 2026: SGD 12.50",
        "Total: SGD 14.50",
        "Includes GST 9%: SGD 1.20",
        "Payment method: PayNow",
        "Reference: SSA7F3K9Q",
        "Thank you for playing.",
    ]


def test_credit_note_as_text():
    lines = render_text(credit_note(tax_rate=None, footer=""))
    assert lines[:3] == ["Credit note", "Credit note number: SSA-CN-2026-00001", "Date: 5 March 2026"]
    assert "Credited to: Tan Wei Ming" in lines
    assert "Credit note for receipt SSA-2026-00001" in lines
    assert "Reason: Withdrew before the closing date" in lines
    assert lines[-3:] == ["Total credited: SGD 2.00", "Refund method: PayNow refund", "Reference: RF-0042"]
    assert not any("GST 9%" in line for line in lines)


def test_a_concession_without_a_note_and_a_note_without_a_concession():
    doc = receipt(lines=(DocLine("Open", D("3.00"), D("1.50")), DocLine("Open", D("3.00"), D("3.00"), "Walk-in")))
    text = render_text(doc)
    assert "  Standard fee SGD 3.00, less concession SGD 1.50" in text
    assert "  Walk-in" in text
    rows = document_content(doc).rows
    assert [(r.standard, r.concession, r.amount) for r in rows] == [("3.00", "-1.50", "1.50"), ("3.00", "", "3.00")]


def test_amounts_are_shown_to_the_cent_with_thousands():
    doc = receipt(lines=(DocLine("Sponsorship", D("1250"), D("1250")),), total=D("1250"), tax_rate=D("9.00"))
    text = render_text(doc)
    assert "Sponsorship: SGD 1,250.00" in text
    assert "Total: SGD 1,250.00" in text
    assert "Includes GST 9%: SGD 103.21" in text


def test_receipt_pdf_reads_back():
    data = render_pdf(receipt())
    assert data.startswith(b"%PDF-")
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 1
    assert round(float(reader.pages[0].mediabox.width)) == 595  # A4: 210 mm
    assert round(float(reader.pages[0].mediabox.height)) == 842  # 297 mm
    assert reader.metadata.title == "Receipt SSA-2026-00001"
    assert reader.metadata.author == "Singapore Scrabble Association"
    text = pdf_text(data)
    for expected in [
        "Receipt",
        "SSA-2026-00001",
        "5 March 2026",
        "Singapore Scrabble Association",
        "GST Reg. No. M90000000A",
        "Received from",
        "Tan Wei Ming",
        "weiming@example.com",
        "Open category, Burst Open 2026",
        "Passion Card concession",
        "3.00",
        "-1.00",
        "2.00",
        "Lunch, Burst Open 2026",
        "12.50",
        "Total: SGD 14.50",
        "Includes GST 9%: SGD 1.20",
        "Payment method: PayNow",
        "Reference: SSA7F3K9Q",
        "Thank you for playing.",
    ]:
        assert expected in text, expected
    assert "Credit note" not in text


def test_receipt_pdf_with_one_concession_line_states_its_gst():
    doc = receipt(lines=receipt().lines[:1], total=D("2.00"))
    text = pdf_text(render_pdf(doc))
    assert "Total: SGD 2.00" in text
    assert "Includes GST 9%: SGD 0.17" in text


def test_pdf_says_what_the_text_says():
    for doc in (receipt(), credit_note()):
        text = pdf_text(render_pdf(doc))
        content = document_content(doc)
        for line in (*content.facts, *content.credit, *content.totals, *content.payment, content.footer):
            assert line in text, line


def test_credit_note_pdf_reads_back():
    data = render_pdf(credit_note())
    assert PdfReader(io.BytesIO(data)).metadata.title == "Credit note SSA-CN-2026-00001"
    text = pdf_text(data)
    for expected in [
        "Credit note",
        "SSA-CN-2026-00001",
        "Credited to",
        "Tan Wei Ming",
        "Credit note for receipt SSA-2026-00001",
        "Reason: Withdrew before the closing date",
        "Open category, Burst Open 2026",
        "Passion Card concession",
        "Total credited: SGD 2.00",
        "Includes GST 9%: SGD 0.17",
        "Refund method: PayNow refund",
        "Reference: RF-0042",
    ]:
        assert expected in text, expected


def test_rendering_twice_gives_the_same_bytes():
    assert render_pdf(receipt()) == render_pdf(receipt())
    assert render_pdf(credit_note()) == render_pdf(credit_note())
    assert render_pdf(receipt()) != render_pdf(receipt(number="SSA-2026-00002"))


def test_a_long_description_wraps_rather_than_being_cut():
    words = " ".join(f"word{i:02d}" for i in range(60))
    doc = receipt(lines=(DocLine(f"Open category: {words} end", D("3.00"), D("3.00")),), total=D("3.00"))
    data = render_pdf(doc)
    assert f"Open category: {words} end" in pdf_text(data)
    page = PdfReader(io.BytesIO(data)).pages[0].extract_text()
    assert "word00" in page and "word59 end" in page
    assert not any("word00" in line and "word59" in line for line in page.splitlines())  # on several lines


def test_many_lines_run_onto_further_pages():
    lines = tuple(DocLine(f"Entry {i:03d}", D("3.00"), D("3.00")) for i in range(80))
    data = render_pdf(receipt(lines=lines, total=D("240.00")))
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) > 1
    text = pdf_text(data)
    assert all(f"Entry {i:03d}" in text for i in range(80))
    assert "Total: SGD 240.00" in text
    assert "Receipt SSA-2026-00001, page 2" in text


def test_text_that_looks_like_markup_and_names_beyond_latin_are_printed_as_given():
    payer = Party("陈伟明 & Zoë <Tan>", ("a&b@example.com",))
    data = render_pdf(receipt(payer=payer, lines=(DocLine("Open <b>", D("3.00"), D("3.00")),), total=D("3.00")))
    text = pdf_text(data)
    assert "陈伟明 & Zoë <Tan>" in text
    assert "a&b@example.com" in text
    assert "Open <b>" in text

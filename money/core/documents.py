"""Receipts, credit notes, quotations and invoices: what they say, as plain lines and as an A4 PDF.

`document_content` is the one place that decides what a document says (labels, amounts, dates, which lines
appear); `render_text` lists that content as plain lines and `render_pdf` lays the same content out on a page.
Amounts are shown as given, in the document's currency, to the cent: a credit note states the amount credited
as a positive figure, and its title says it is a credit.

PDF text is set in the PDF standard fonts (Helvetica), which cover Western European text (Windows-1252). Runs
of other characters, such as a payer's name in Chinese, are set in Adobe's STSong-Light CJK font, which is not
embedded: PDF viewers supply it or a substitute. Scripts beyond both (Tamil, for one) cannot be drawn.
"""

from __future__ import annotations

import datetime
import io
import itertools
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from types import SimpleNamespace
from typing import Literal
from xml.sax.saxutils import escape

from money.core import tax as _tax

__all__ = [
    "KINDS",
    "Party",
    "DocLine",
    "Document",
    "Row",
    "DocumentContent",
    "document_content",
    "render_text",
    "render_pdf",
]

Kind = Literal["receipt", "credit_note", "quotation", "invoice"]
KINDS: tuple[str, ...] = ("receipt", "credit_note", "quotation", "invoice")
_TITLES = {"receipt": "Receipt", "credit_note": "Credit note", "quotation": "Quotation", "invoice": "Invoice"}
# Documents that ask for money (or say what it would be) rather than record it.
BILLS = ("quotation", "invoice")
_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def _money_value(value: object, name: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, Decimal | int):
        raise TypeError(f"{name} must be a Decimal, not {type(value).__name__}")
    value = Decimal(value)
    if not value.is_finite():
        raise ValueError(f"{name} must be finite, not {value}")
    return value


@dataclass(frozen=True)
class Party:
    """Who issues or receives a document: a name and the lines printed under it (address, UEN, GST number;
    or a payer's email)."""

    name: str
    lines: tuple[str, ...] = ()

    def __post_init__(self):
        object.__setattr__(self, "lines", tuple(line for line in self.lines if line))


@dataclass(frozen=True)
class DocLine:
    """One line of a document: what was paid for, its standard fee and the amount charged. An amount below
    the standard fee is a concession or discount, which `note` names (e.g. "Passion Card concession")."""

    description: str
    standard: Decimal
    amount: Decimal
    note: str = ""
    paid: Decimal | None = None  # a part payment: what this document's money paid of `amount`

    def __post_init__(self):
        object.__setattr__(self, "standard", _money_value(self.standard, "standard"))
        object.__setattr__(self, "amount", _money_value(self.amount, "amount"))
        if self.paid is not None:
            object.__setattr__(self, "paid", _money_value(self.paid, "paid"))

    @property
    def concession(self) -> Decimal:
        """How much below the standard fee the amount is; zero when it is not below."""
        return max(self.standard - self.amount, Decimal(0))


@dataclass(frozen=True)
class Document:
    """A receipt, a credit note against a receipt (`original_number`), a quotation or an invoice, ready to render.

    `tax_rate` (percent) is set when the amounts include tax (GST); the tax contained in the total is then
    stated on the document. A quotation or an invoice is addressed to `payer` (the billing name and address)
    and states what was `paid_before` it and so what it asks for; a quotation is `valid_until` a day, an invoice
    is to be paid by `pay_by`. A receipt for money paid against an invoice names it (`invoice_number`) and
    carries its billing details (`billing`); `po_number` is the payer's purchase order on any of them."""

    kind: Kind
    number: str
    issued: datetime.date
    issuer: Party
    payer: Party
    lines: tuple[DocLine, ...]
    currency: str
    total: Decimal
    method: str
    reference: str
    tax_rate: Decimal | None = None
    tax_label: str = "GST"
    original_number: str = ""
    reason: str = ""
    footer: str = ""
    po_number: str = ""
    invoice_number: str = ""
    billing: Party | None = None
    paid_before: Decimal | None = None
    valid_until: datetime.date | None = None
    pay_by: datetime.date | None = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, not {self.kind!r}")
        if not self.number:
            raise ValueError("a document needs a number")
        if not isinstance(self.issued, datetime.date):
            raise TypeError(f"issued must be a date, not {type(self.issued).__name__}")
        if not self.currency:
            raise ValueError("a document needs a currency")
        if self.kind == "credit_note" and not self.original_number:
            raise ValueError("a credit note must name the receipt it refers to (original_number)")
        lines = tuple(self.lines)
        if not all(isinstance(line, DocLine) for line in lines):
            raise TypeError("lines must be DocLine instances")
        object.__setattr__(self, "lines", lines)
        object.__setattr__(self, "total", _money_value(self.total, "total"))
        if self.paid_before is not None:
            object.__setattr__(self, "paid_before", _money_value(self.paid_before, "paid_before"))
        if self.kind == "quotation" and self.valid_until is None:
            raise ValueError("a quotation must say until when it is valid (valid_until)")
        if self.tax_rate is not None:
            rate = _money_value(self.tax_rate, "tax_rate")
            if rate < 0:
                raise ValueError(f"a tax rate cannot be negative: {rate}")
            object.__setattr__(self, "tax_rate", rate)

    @property
    def title(self) -> str:
        return _TITLES[self.kind]

    @property
    def amount_due(self) -> Decimal:
        """What a quotation or invoice asks for: the total less what was paid before it."""
        return max(self.total - (self.paid_before or Decimal(0)), Decimal(0))

    @property
    def tax_included(self) -> Decimal | None:
        """The tax contained in the total, or None when the document states no tax rate."""
        if self.tax_rate is None:
            return None
        return _tax.tax_included(self.total, self.tax_rate)


# What a document says ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One line of the table, with its amounts already formatted (without the currency, which the headers
    carry). `concession` is "" when the amount is not below the standard fee."""

    description: str
    note: str
    standard: str
    concession: str
    amount: str
    text: tuple[str, ...]


@dataclass(frozen=True)
class DocumentContent:
    """Everything a document says, in reading order, as formatted strings."""

    title: str  # "Receipt"
    heading: str  # "Receipt SSA-2026-00001", also the PDF's title
    facts: tuple[str, ...]  # number and date
    issuer: Party
    payer_label: str
    payer: Party
    credit: tuple[str, ...]  # a credit note's receipt and reason; the invoice and billing details a receipt carries
    columns: tuple[str, str, str, str]
    rows: tuple[Row, ...]
    totals: tuple[str, ...]
    payment: tuple[str, ...]
    footer: str = ""


def _money(amount: Decimal) -> str:
    amount = amount.quantize(_tax.CENT, rounding=ROUND_HALF_UP)
    return f"{abs(amount) if amount == 0 else amount:,.2f}"


def _rate(rate: Decimal) -> str:
    return f"{rate.normalize():f}"


def _date(day: datetime.date) -> str:
    return f"{day.day} {_MONTHS[day.month - 1]} {day.year}"


def _row(line: DocLine, currency: str, receipt: bool = True) -> Row:
    standard, amount = _money(line.standard), _money(line.amount)
    if not receipt:  # a credit note's line: what was paid, and how much of it is credited
        text = [f"{line.description}: {currency} {amount} credited"]
        if line.standard != line.amount:
            text.append(f"  of {currency} {standard} paid")
        return Row(line.description, line.note, standard, "", amount, tuple(text))
    if line.paid is not None and line.paid != line.amount:
        # The amount column is what this payment paid; the line says of how much.
        amount = _money(line.paid)
        text = [f"{line.description}: {currency} {amount}", f"  Part payment of {currency} {_money(line.amount)}"]
    else:
        text = [f"{line.description}: {currency} {amount}"]
    if line.concession:
        concession = _money(line.concession)
        text.append(f"  Standard fee {currency} {standard}, less {line.note or 'concession'} {currency} {concession}")
        concession = f"-{concession}"
    else:
        concession = ""
        if line.note:
            text.append(f"  {line.note}")
    return Row(line.description, line.note, standard, concession, amount, tuple(text))


_PAYER_LABELS = {
    "receipt": "Received from",
    "credit_note": "Credited to",
    "quotation": "Quoted to",
    "invoice": "Bill to",
}


def _facts(doc: Document) -> tuple[str, ...]:
    facts = [f"{doc.title} number: {doc.number}", f"Date: {_date(doc.issued)}"]
    if doc.valid_until:
        facts.append(f"Valid until: {_date(doc.valid_until)}")
    if doc.pay_by:
        facts.append(f"Pay by: {_date(doc.pay_by)}")
    if doc.po_number and doc.kind in BILLS:
        facts.append(f"Purchase order: {doc.po_number}")
    return tuple(facts)


def _totals(doc: Document) -> list[str]:
    cur = doc.currency
    if doc.kind == "credit_note":
        totals = [f"Total credited: {cur} {_money(doc.total)}"]
    elif doc.kind in BILLS and doc.paid_before:
        totals = [
            f"Amount due: {cur} {_money(doc.amount_due)}",
            f"Total fees: {cur} {_money(doc.total)}",
            f"Paid already: {cur} {_money(doc.paid_before)}",
        ]
    else:
        totals = [f"{'Amount due' if doc.kind in BILLS else 'Total'}: {cur} {_money(doc.total)}"]
    if doc.tax_rate is not None:
        totals.append(f"Includes {doc.tax_label} {_rate(doc.tax_rate)}%: {cur} {_money(doc.tax_included)}")
    return totals


def _payment(doc: Document) -> list[str]:
    payment = []
    if doc.method:
        payment.append(f"{'Refund' if doc.kind == 'credit_note' else 'Payment'} method: {doc.method}")
    if doc.reference:
        quote = "Pay quoting the reference" if doc.kind in BILLS else "Reference"
        payment.append(f"{quote}: {doc.reference}")
    return payment


def _credit(doc: Document) -> list[str]:
    """What a credit note refers to, or the invoice and billing details a receipt carries."""
    credit = []
    if doc.kind == "credit_note":
        credit.append(f"Credit note for receipt {doc.original_number}")
        if doc.reason:
            credit.append(f"Reason: {doc.reason}")
    elif doc.kind == "receipt":
        if doc.invoice_number:
            credit.append(f"For invoice {doc.invoice_number}")
        if doc.billing is not None:
            credit += [f"Billed to: {doc.billing.name}", *doc.billing.lines]
        if doc.po_number:
            credit.append(f"Purchase order: {doc.po_number}")
    return credit


def document_content(doc: Document) -> DocumentContent:
    """What `doc` says: the single source for `render_text` and `render_pdf`."""
    receipt = doc.kind != "credit_note"  # quotations and invoices list their lines as a receipt does
    cur = doc.currency
    return DocumentContent(
        title=doc.title,
        heading=f"{doc.title} {doc.number}",
        facts=_facts(doc),
        issuer=doc.issuer,
        payer_label=_PAYER_LABELS[doc.kind],
        payer=doc.payer,
        credit=tuple(_credit(doc)),
        columns=(
            # "Less": a concession, a member's fee or a discount code, whichever took the line below the standard fee.
            ("Description", f"Standard fee ({cur})", f"Less ({cur})", f"Amount ({cur})")
            if receipt
            else ("Description", f"Paid ({cur})", "", f"Credited ({cur})")
        ),
        rows=tuple(_row(line, cur, receipt) for line in doc.lines),
        totals=tuple(_totals(doc)),
        payment=tuple(_payment(doc)),
        footer=doc.footer,
    )


def render_text(doc: Document) -> list[str]:
    """The document as plain lines, in reading order (no blank lines)."""
    c = document_content(doc)
    lines = [c.title, *c.facts, c.issuer.name, *c.issuer.lines]
    lines += [f"{c.payer_label}: {c.payer.name}", *c.payer.lines, *c.credit]
    for row in c.rows:
        lines += row.text
    lines += [*c.totals, *c.payment]
    if c.footer:
        lines.append(c.footer)
    return lines


# The PDF ------------------------------------------------------------------------------------------------------

_CJK_FONT = "STSong-Light"


def _encodable(char: str) -> bool:
    try:
        char.encode("cp1252")
    except UnicodeEncodeError:
        return False
    return True


def _markup(text: str) -> str:
    """`text` as Paragraph markup: escaped, with runs of characters the standard fonts lack set in the CJK
    font."""
    out = []
    for encodable, chars in itertools.groupby(text, key=_encodable):
        run = escape("".join(chars))
        out.append(run if encodable else f'<font name="{_CJK_FONT}">{run}</font>')
    return "".join(out)


def _styles() -> SimpleNamespace:
    from reportlab.lib import colors
    from reportlab.lib.enums import TA_RIGHT
    from reportlab.lib.styles import ParagraphStyle

    body = ParagraphStyle("body", fontName="Helvetica", fontSize=10, leading=13)
    bold = ParagraphStyle("bold", parent=body, fontName="Helvetica-Bold")
    small = ParagraphStyle("small", parent=body, fontSize=8.5, leading=11, textColor=colors.HexColor("#444444"))
    cell = ParagraphStyle("cell", parent=body, fontSize=9.5, leading=12)
    head = ParagraphStyle("head", parent=cell, fontName="Helvetica-Bold")
    return SimpleNamespace(
        title=ParagraphStyle("title", parent=body, fontName="Helvetica-Bold", fontSize=20, leading=24),
        body=body,
        bold=bold,
        small=small,
        cell=cell,
        cell_right=ParagraphStyle("cell_right", parent=cell, alignment=TA_RIGHT),
        head=head,
        head_right=ParagraphStyle("head_right", parent=head, alignment=TA_RIGHT),
        total=ParagraphStyle("total", parent=bold, fontSize=11, leading=15, alignment=TA_RIGHT),
    )


def _ensure_cjk_font() -> None:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont

    if _CJK_FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(UnicodeCIDFont(_CJK_FONT))


def render_pdf(doc: Document) -> bytes:
    """The document as an A4 PDF. Rendering the same document twice gives the same bytes."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    _ensure_cjk_font()
    c = document_content(doc)
    s = _styles()

    def para(text: str, style) -> Paragraph:
        return Paragraph(_markup(text), style)

    def block(party: Party, label: str = "") -> list[Paragraph]:
        out = [para(label, s.small)] if label else []
        return out + [para(party.name, s.bold)] + [para(line, s.body) for line in party.lines]

    margin = 18 * mm
    width = A4[0] - 2 * margin
    story: list = []

    # Head: the issuer on the left, the title, number and date on the right.
    right = [para(c.title, s.title), Spacer(1, 2 * mm)] + [para(fact, s.body) for fact in c.facts]
    head = Table([[block(c.issuer), right]], colWidths=[width * 0.55, width * 0.45])
    head.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (0, -1), 0),
                ("RIGHTPADDING", (-1, 0), (-1, -1), 0),
            ]
        )
    )
    story += [head, Spacer(1, 8 * mm)]

    story += block(c.payer, c.payer_label)
    if c.credit:
        story += [Spacer(1, 4 * mm)] + [para(line, s.body) for line in c.credit]
    story.append(Spacer(1, 8 * mm))

    # The lines: description (with its note beneath), standard fee, concession, amount.
    heads = [para(c.columns[0], s.head)] + [para(column, s.head_right) for column in c.columns[1:]]
    data = [heads]
    for row in c.rows:
        description = [para(row.description, s.cell)] + ([para(row.note, s.small)] if row.note else [])
        data.append([description] + [para(value, s.cell_right) for value in (row.standard, row.concession, row.amount)])
    lines = Table(data, colWidths=[width * 0.49, width * 0.17, width * 0.17, width * 0.17], repeatRows=1)
    lines.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
                ("LINEBELOW", (0, 1), (-1, -1), 0.3, colors.HexColor("#bbbbbb")),
                ("LEFTPADDING", (0, 0), (0, -1), 0),
                ("RIGHTPADDING", (-1, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 4),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
            ]
        )
    )
    story += [lines, Spacer(1, 4 * mm)]

    totals = [para(c.totals[0], s.total)] + [para(line, s.cell_right) for line in c.totals[1:]]
    story.append(KeepTogether(totals))
    if c.payment:
        story += [Spacer(1, 6 * mm)] + [para(line, s.body) for line in c.payment]
    if c.footer:
        story += [Spacer(1, 10 * mm), para(c.footer, s.small)]

    def page_footer(canvas, template) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 8)
        canvas.setFillColor(colors.HexColor("#666666"))
        canvas.drawRightString(A4[0] - margin, 10 * mm, f"{c.heading}, page {template.page}")
        canvas.restoreState()

    buffer = io.BytesIO()
    template = SimpleDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=margin,
        rightMargin=margin,
        topMargin=margin,
        bottomMargin=margin,
        title=c.heading,
        author=doc.issuer.name,
        subject=c.heading,
        creator=doc.issuer.name,
        invariant=1,
    )
    template.build(story, onFirstPage=page_footer, onLaterPages=page_footer)
    return buffer.getvalue()

import datetime
from decimal import Decimal

import pytest

from money.core.references import make_reference
from money.core.statements import Mapping, parse_mapping, parse_statement

E123 = make_reference("E", 123)
G7 = make_reference("G", 7)
M42 = make_reference("M", 42)

PLAIN = f"""date,amount,description
2024-01-05,30.00,PAYNOW TRF FROM TAN AH KOW OTHR {E123} SCRABBLE
2024-01-06,"1,234.50",GIRO {G7}
06/01/2024,S$3.00,cash top-up
2024-01-07,-12.00,BANK CHARGES
"""

DBS_SPEC = (
    "date=Transaction Date; credit=Credit Amount; debit=Debit Amount; "
    "description=Transaction Ref1,Transaction Ref2,Transaction Ref3; skip=6; date_format=%d %b %Y"
)

DBS = f"""Account Details For:,POSB eSavings Account 123-45678-9
Statement as at:,15 Jan 2024
Available Balance:,"4,567.89"
Ledger Balance:,"4,567.89"
,

Transaction Date,Reference,Debit Amount,Credit Amount,Transaction Ref1,Transaction Ref2,Transaction Ref3
05 Jan 2024,ICT, ,30.00,PayNow Transfer,From: TAN AH KOW,OTHR {E123}
05 Jan 2024,ICT, ,30.00,PayNow Transfer,From: TAN AH KOW,OTHR {E123}
06 Jan 2024,POS,45.10, ,NETS QR PAYMENT,STARBUCKS,
07 Jan 2024,ICT, ,"1,020.00",FAST Payment,ONG BEE LEAN,{G7.lower()} and {M42}

08 Jan 2024,ICT, ,abc,PayNow Transfer,From: LIM,
"""


def test_plain_csv():
    statement = parse_statement(PLAIN)
    assert statement.errors == []
    assert [(line.line_no, line.date, line.amount) for line in statement.lines] == [
        (2, datetime.date(2024, 1, 5), Decimal("30.00")),
        (3, datetime.date(2024, 1, 6), Decimal("1234.50")),
        (4, datetime.date(2024, 1, 6), Decimal("3.00")),
        (5, datetime.date(2024, 1, 7), Decimal("-12.00")),
    ]
    first = statement.lines[0]
    assert first.description == f"PAYNOW TRF FROM TAN AH KOW OTHR {E123} SCRABBLE"
    assert first.references == (("E", 123),)
    assert statement.lines[1].references == (("G", 7),)
    assert statement.lines[2].references == ()
    assert all(type(line.amount) is Decimal for line in statement.lines)
    assert len(first.fingerprint) == 64 and int(first.fingerprint, 16) >= 0


def test_plain_is_the_default_and_bytes_are_read_as_utf8():
    assert Mapping() == Mapping.plain()
    assert parse_statement(PLAIN.encode()) == parse_statement(PLAIN, Mapping.plain())
    assert Mapping.plain().columns == ("date", "amount", "description")


def test_dbs_like_export():
    statement = parse_statement(DBS.replace("\n", "\r\n").encode(), parse_mapping(DBS_SPEC))
    assert [(line.line_no, line.date, line.amount, line.references) for line in statement.lines] == [
        (8, datetime.date(2024, 1, 5), Decimal("30.00"), (("E", 123),)),
        (9, datetime.date(2024, 1, 5), Decimal("30.00"), (("E", 123),)),
        (10, datetime.date(2024, 1, 6), Decimal("-45.10"), ()),
        (11, datetime.date(2024, 1, 7), Decimal("1020.00"), (("G", 7), ("M", 42))),
    ]
    assert statement.lines[0].description == f"PayNow Transfer From: TAN AH KOW OTHR {E123}"
    assert statement.lines[2].description == "NETS QR PAYMENT STARBUCKS"
    assert [(e.line_no, e.column) for e in statement.errors] == [(13, "Credit Amount")]
    assert statement.errors[0].message == "line 13, Credit Amount: 'abc' is not an amount"


def test_semicolons_and_a_decimal_comma():
    text = f"date;amount;description\n05/01/2024;1.234,50;Überweisung {E123}\n06/01/2024;-3,5;Gebühr\n07/01/2024;30;x\n"
    statement = parse_statement(text.encode("utf-8"), Mapping(decimal_comma=True))
    assert statement.errors == []
    assert [line.amount for line in statement.lines] == [Decimal("1234.50"), Decimal("-3.50"), Decimal("30.00")]
    assert statement.lines[0].references == (("E", 123),)
    assert statement.lines[1].description == "Gebühr"


def test_a_decimal_comma_is_not_mistaken_for_thousands():
    statement = parse_statement('date,amount,description\n2024-01-05,"3,5",x\n')
    assert [e.message for e in statement.errors] == ["line 2, amount: '3,5' is not an amount"]


def test_bom_and_blank_lines():
    data = b"\xef\xbb\xbf" + b"Date , Amount,DESCRIPTION\r\n\r\n2024-01-05,30.00,a\r\n   \r\n,,\r\n2024-01-06,3,b\r\n"
    statement = parse_statement(data)
    assert statement.errors == []
    assert [(line.line_no, line.amount, line.description) for line in statement.lines] == [
        (3, Decimal("30.00"), "a"),
        (6, Decimal("3.00"), "b"),
    ]


def test_windows_spreadsheet_encodings():
    text = "date,amount,description\n2024-01-05,30.00,Café\n"
    assert parse_statement(text.encode("cp1252")).lines[0].description == "Café"
    assert parse_statement(text.encode("utf-16")).lines[0].description == "Café"


@pytest.mark.parametrize(
    "raw, amount",
    [
        ("3", "3.00"),
        ("3.5", "3.50"),
        ("1,234.50", "1234.50"),
        ("1,234,567.891", "1234567.891"),
        ("S$3.00", "3.00"),
        ("SGD 3.00", "3.00"),
        ("$ 1,000", "1000.00"),
        ("-S$3.00", "-3.00"),
        ("S$-3.00", "-3.00"),
        ("(3.00)", "-3.00"),
        ("+3", "3.00"),
        (".50", "0.50"),
        ("3.00 SGD", "3.00"),
    ],
)
def test_amounts(raw, amount):
    statement = parse_statement(f'date,amount,description\n2024-01-05,"{raw}",x\n')
    assert statement.errors == []
    assert statement.lines[0].amount == Decimal(amount)
    assert str(statement.lines[0].amount) == amount


@pytest.mark.parametrize("raw", ["abc", "3.0.0", "1,23.00", "3e5", "NaN", "Infinity", "--3", "S$", "1" * 30, "٣"])
def test_not_amounts(raw):
    statement = parse_statement(f'date,amount,description\n2024-01-05,"{raw}",x\n')
    assert statement.lines == []
    assert [e.message for e in statement.errors] == [f"line 2, amount: {raw!r} is not an amount"]


def test_error_lines_are_reported_and_good_lines_still_parse():
    text = (
        "date,amount,description\n"
        "2024-01-05,30.00,good\n"
        "2024-02-30,30.00,no such day\n"
        "2024-01-06,abc,bad amount\n"
        "yesterday,,both bad\n"
        '2024-01-07,5,"a description\nover two lines"\n'
        "2024-01-08,6,after it\n"
    )
    statement = parse_statement(text)
    assert [(line.line_no, line.description) for line in statement.lines] == [
        (2, "good"),
        (6, "a description over two lines"),
        (8, "after it"),
    ]
    assert [str(e) for e in statement.errors] == [
        "line 3, date: '2024-02-30' is not a date (like 2024-01-31, 31/01/2024, 31 Jan 2024)",
        "line 4, amount: 'abc' is not an amount",
        "line 5, date: 'yesterday' is not a date (like 2024-01-31, 31/01/2024, 31 Jan 2024)",
        "line 5, amount: no amount",
    ]
    assert [(e.line_no, e.column) for e in statement.errors] == [(3, "date"), (4, "amount"), (5, "date"), (5, "amount")]


def test_a_short_row_has_empty_cells():
    statement = parse_statement("date,amount,description\n2024-01-05,30\n2024-01-06\n")
    assert [(line.amount, line.description) for line in statement.lines] == [(Decimal("30.00"), "")]
    assert [e.message for e in statement.errors] == ["line 3, amount: no amount"]


def test_credit_and_debit_columns():
    mapping = parse_mapping("credit=In; debit=Out")
    text = "date,In,Out,description\n2024-01-05,30,,a\n2024-01-05,,12,b\n2024-01-05,0.00,-7,c\n2024-01-05,,,d\n"
    text += "2024-01-05,5,5,e\n2024-01-05,x,,f\n"
    statement = parse_statement(text, mapping)
    assert [line.amount for line in statement.lines] == [Decimal("30.00"), Decimal("-12.00"), Decimal("-7.00")]
    assert [e.message for e in statement.errors] == [
        "line 5, In or Out: no amount",
        "line 6, In and Out: both a credit and a debit",
        "line 7, In: 'x' is not an amount",
    ]


def test_identical_lines_get_different_fingerprints_and_the_same_file_the_same_ones():
    mapping = parse_mapping(DBS_SPEC)
    first = parse_statement(DBS, mapping)
    twins = first.lines[:2]
    assert twins[0].description == twins[1].description and twins[0].amount == twins[1].amount
    assert twins[0].fingerprint != twins[1].fingerprint
    assert len({line.fingerprint for line in first.lines}) == len(first.lines)
    again = parse_statement(DBS.encode(), mapping)
    assert [line.fingerprint for line in again.lines] == [line.fingerprint for line in first.lines]


def test_an_overlapping_statement_shares_the_fingerprints_of_the_shared_lines():
    january = "date,amount,description\n2024-01-30,10,a\n2024-01-31,30,PAYNOW X\n2024-01-31,30,PAYNOW X\n"
    february = "date;amount;description\n31/01/2024;30,00;paynow  x\n31/01/2024;30,00;PAYNOW X\n01/02/2024;30;a\n"
    jan = parse_statement(january)
    feb = parse_statement(february, Mapping(decimal_comma=True))
    assert jan.errors == feb.errors == []
    assert {line.fingerprint for line in jan.lines} & {line.fingerprint for line in feb.lines} == {
        line.fingerprint for line in jan.lines[1:]
    }


def test_fingerprints_ignore_case_and_spacing_but_not_the_line_itself():
    def fp(row):
        return parse_statement(f"date,amount,description\n{row}\n").lines[0].fingerprint

    assert fp("2024-01-05,30,Pay  Now") == fp("05/01/2024,30.00,PAY NOW ")
    assert len({fp("2024-01-05,30,a"), fp("2024-01-06,30,a"), fp("2024-01-05,31,a"), fp("2024-01-05,30,b")}) == 4
    assert fp("2024-01-05,30,a") != fp("2024-01-05,-30,a")


def test_a_missing_column_is_named_with_the_columns_found():
    with pytest.raises(ValueError) as raised:
        parse_statement("Date,Value,Details\n2024-01-05,30,x\n")
    message = str(raised.value)
    assert "'amount'" in message and "'description'" in message
    assert "'Date', 'Value', 'Details'" in message


def test_a_wrong_skip_points_at_the_header():
    with pytest.raises(ValueError, match=r"no column 'Transaction Date'.*on line 7: skip should be 6"):
        parse_statement(DBS, parse_mapping(DBS_SPEC.replace("skip=6", "skip=2")))


def test_an_empty_file_has_no_header():
    with pytest.raises(ValueError, match="no header"):
        parse_statement(b"")
    with pytest.raises(ValueError, match="no header"):
        parse_statement("a\nb\n", Mapping(skip=5))


def test_parse_mapping():
    mapping = parse_mapping(DBS_SPEC)
    assert mapping == Mapping(
        date="Transaction Date",
        credit="Credit Amount",
        debit="Debit Amount",
        description=("Transaction Ref1", "Transaction Ref2", "Transaction Ref3"),
        skip=6,
        date_formats=("%d %b %Y",),
    )
    assert mapping.amount is None
    assert parse_mapping("") == Mapping.plain()
    assert parse_mapping("Decimal Comma = yes\ndate_format=%d.%m.%Y|%Y-%m-%d") == Mapping(
        decimal_comma=True, date_formats=("%d.%m.%Y", "%Y-%m-%d")
    )
    assert parse_mapping(mapping.spec()) == mapping
    assert parse_mapping(Mapping.plain().spec()) == Mapping.plain()


@pytest.mark.parametrize(
    "spec, message",
    [
        ("date=Date; colour=blue", "'colour'"),
        ("date", "not key=value"),
        ("skip=two", "skip"),
        ("decimal_comma=maybe", "decimal_comma"),
        ("date=a; date=b", "twice"),
        ("amount=Amt; credit=Cr", "not both"),
        ("description=", "description"),
    ],
)
def test_parse_mapping_refuses(spec, message):
    with pytest.raises(ValueError, match=message):
        parse_mapping(spec)


def test_a_stray_quote_is_an_error_on_its_line_and_swallows_nothing():
    text = 'date,amount,description\n2024-01-05,30,5" pizza\n2024-01-06,"3"0,x\n2024-01-07,4,ok\n2024-01-08,5,"open\n'
    text += "2024-01-09,6,lost\n"
    statement = parse_statement(text)
    assert [(line.line_no, line.description) for line in statement.lines] == [(2, '5" pizza'), (4, "ok")]
    assert [(e.line_no, e.column) for e in statement.errors] == [(3, ""), (5, "")]
    assert statement.errors[1].message == (
        "line 5: a quote opened on this line is never closed, so the lines after it could not be read"
    )

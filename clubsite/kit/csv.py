"""CSV files people open in a spreadsheet: every download of one goes through `csv_response`, and every CSV a command
prints through `write_csv`; both make every cell safe, so text a person typed (a name, a school) can never run as a
formula on the organiser's computer. No cache keeps a download (the files hold entrants' and payers' details)."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable

from django.http import HttpResponse
from django.utils.cache import patch_cache_control

# A spreadsheet reads a cell beginning with one of these as a formula (or a command): such text is written
# with a leading apostrophe, which spreadsheets show as plain text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# A sign followed only by digits, spaces, dots and brackets ("+65 9123 4567", "-5", "+65 (0) 6567 1374") names no
# function, no cell and no operator, so it cannot run as anything: a phone number is left as it was typed.
PLAIN_NUMBER = re.compile(r"[+-][0-9][0-9 .()]*\Z")
CONTENT_TYPE = "text/csv; charset=utf-8"


def safe_cell(value):
    """A cell as the spreadsheet should show it: text that would start a formula is made plain text. Numbers
    (a refund's -1.50), and signed digits such as a phone number, are left as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not PLAIN_NUMBER.match(value):
        return "'" + value
    return value


def safe_row(row: Iterable) -> list:
    return [safe_cell(value) for value in row]


def csv_response(filename: str, rows: Iterable[Iterable]) -> HttpResponse:
    """A CSV attachment named `filename`: `rows` (the header first), every cell made safe; never cached."""
    response = HttpResponse(content_type=CONTENT_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    patch_cache_control(response, private=True, no_store=True)  # kept by no shared cache, nor by the browser
    write_csv(response, rows)
    return response


def write_csv(stream, rows: Iterable[Iterable], **options) -> None:
    """CSV written to a file or a command's output, every cell made safe as in a download (`options`: the csv
    module's, e.g. lineterminator)."""
    writer = csv.writer(stream, **options)
    for row in rows:
        writer.writerow(safe_row(row))

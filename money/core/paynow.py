"""The PayNow (SGQR) payload: the text a PayNow QR code holds, in EMVCo's merchant-presented format.

Every field is ID (2 digits) + length (2 digits, decimal) + value; a template's value is itself a run of
such fields. The payload ends with field 63, a CRC-16/CCITT-FALSE over everything before it including
"6304", as 4 uppercase hex digits. What goes in:

    00 "01"                 payload format
    01 "12"                 dynamic: the code names an amount
    26 PayNow               00 "SG.PAYNOW", 01 proxy type ("2" UEN, "0" mobile), 02 proxy value,
                            03 amount editable ("1"/"0"), 04 expiry YYYYMMDD (when there is one)
    52 "0000"               merchant category code
    53 "702"                currency (SGD)
    54 "3.00"               amount
    58 "SG"                 country
    59 merchant name        at most 25 characters (longer names are cut: banks only display them)
    60 merchant city        at most 15 characters (cut likewise)
    62 additional data      01 the bill number (our payment reference)
    63 CRC

Names and cities are reduced to printable ASCII (accents dropped) so that lengths count characters and
bytes alike. A bad reference, amount or proxy is refused with a ValueError naming the field: those
decide where the money goes and how it is matched, so nothing is guessed.
"""

from __future__ import annotations

import datetime
import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal

PROXY_UEN = "UEN"
PROXY_MOBILE = "MOBILE"
PROXY_CODES = {PROXY_UEN: "2", PROXY_MOBILE: "0"}

MERCHANT_NAME_MAX = 25
MERCHANT_CITY_MAX = 15
REFERENCE_MAX = 25
AMOUNT_MAX = Decimal("9999999999.99")  # EMVCo tag 54 holds at most 13 characters

# The EMVCo templates parse_payload opens: merchant account information (26-51), additional data (62)
# and the language template (64).
TEMPLATES = frozenset({f"{n:02d}" for n in range(26, 52)} | {"62", "64"})

_UEN = re.compile(r"[0-9A-Z]{9,13}")  # 9-10 characters, plus an optional suffix of up to 3 for sub-accounts
_MOBILE = re.compile(r"\+65[89][0-9]{7}")
_REFERENCE = re.compile(rf"[A-Za-z0-9-]{{1,{REFERENCE_MAX}}}")


def crc16_ccitt(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, not reflected, no final XOR."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def _ascii_text(value: str, field: str, limit: int) -> str:
    """Printable ASCII, spaces collapsed, cut to `limit` characters; refused if nothing is left."""
    if not isinstance(value, str):
        raise ValueError(f"{field}: must be text")
    text = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode("ascii")
    text = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    text = text[:limit].rstrip()
    if not text:
        raise ValueError(f"{field}: must not be empty (printable characters, at most {limit})")
    return text


def _amount(value: Decimal) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, Decimal | int):
        raise ValueError("amount: must be a Decimal (not a float)")
    value = Decimal(value)
    if not value.is_finite() or value <= 0:
        raise ValueError("amount: must be more than zero")
    if value > AMOUNT_MAX:
        raise ValueError(f"amount: at most {AMOUNT_MAX}")
    exact = value.quantize(Decimal("0.01"))
    if exact != value:
        raise ValueError("amount: at most 2 decimal places")
    return exact


@dataclass(frozen=True, kw_only=True)
class PayNowRequest:
    """One payment asked for through PayNow. Checked (and name and city tidied) when made."""

    proxy_type: str  # PROXY_UEN or PROXY_MOBILE
    proxy_value: str  # UEN like "S88SS0001A", or mobile like "+6591234567"
    merchant_name: str
    amount: Decimal
    reference: str  # the bill number the payer's bank passes back to us
    merchant_city: str = "Singapore"
    expires: datetime.date | None = None
    editable: bool = False
    currency: str = "702"  # ISO 4217 numeric: SGD
    country: str = "SG"
    mcc: str = "0000"

    def __post_init__(self):
        def tidy(name, value):
            object.__setattr__(self, name, value)

        if not isinstance(self.proxy_type, str) or self.proxy_type not in PROXY_CODES:
            raise ValueError(f"proxy_type: must be {PROXY_UEN!r} or {PROXY_MOBILE!r}")
        if not isinstance(self.proxy_value, str):
            raise ValueError("proxy_value: must be text")
        proxy = "".join(self.proxy_value.split())
        if self.proxy_type == PROXY_UEN:
            proxy = proxy.upper()
            if not _UEN.fullmatch(proxy):
                raise ValueError("proxy_value: a UEN is 9 to 13 letters and digits, like S88SS0001A")
        elif not _MOBILE.fullmatch(proxy):
            raise ValueError("proxy_value: a mobile number is +65 and 8 digits starting with 8 or 9")
        tidy("proxy_value", proxy)
        tidy("merchant_name", _ascii_text(self.merchant_name, "merchant_name", MERCHANT_NAME_MAX))
        tidy("merchant_city", _ascii_text(self.merchant_city, "merchant_city", MERCHANT_CITY_MAX))
        tidy("amount", _amount(self.amount))
        if not isinstance(self.reference, str) or not _REFERENCE.fullmatch(self.reference):
            raise ValueError(f"reference: only letters, digits and hyphens, at most {REFERENCE_MAX}")
        if self.expires is not None and not isinstance(self.expires, datetime.date):
            raise ValueError("expires: must be a date or None")
        if isinstance(self.expires, datetime.datetime):
            tidy("expires", self.expires.date())
        if not isinstance(self.editable, bool):
            raise ValueError("editable: must be True or False")
        for name, pattern in (("currency", r"[0-9]{3}"), ("country", r"[A-Z]{2}"), ("mcc", r"[0-9]{4}")):
            if not isinstance(getattr(self, name), str) or not re.fullmatch(pattern, getattr(self, name)):
                raise ValueError(f"{name}: must match {pattern}")


def _field(tag: str, value: str) -> str:
    if len(value) > 99:
        raise ValueError(f"field {tag}: longer than 99 characters")
    return f"{tag}{len(value):02d}{value}"


def build_payload(req: PayNowRequest) -> str:
    """The EMVCo text for a PayNow QR code asking for `req`."""
    paynow = _field("00", "SG.PAYNOW")
    paynow += _field("01", PROXY_CODES[req.proxy_type])
    paynow += _field("02", req.proxy_value)
    paynow += _field("03", "1" if req.editable else "0")
    if req.expires is not None:
        paynow += _field("04", req.expires.strftime("%Y%m%d"))
    payload = "".join(
        (
            _field("00", "01"),
            _field("01", "12"),
            _field("26", paynow),
            _field("52", req.mcc),
            _field("53", req.currency),
            _field("54", f"{req.amount:f}"),
            _field("58", req.country),
            _field("59", req.merchant_name),
            _field("60", req.merchant_city),
            _field("62", _field("01", req.reference)),
        )
    )
    payload += "6304"
    return payload + f"{crc16_ccitt(payload.encode('utf-8')):04X}"


def _parse_fields(text: str, where: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    i = 0
    while i < len(text):
        head = text[i : i + 4]
        if len(head) < 4 or not head.isdigit() or not head.isascii():
            raise ValueError(f"{where}: expected a 2-digit ID and 2-digit length at position {i}, found {head!r}")
        tag, length = head[:2], int(head[2:])
        value = text[i + 4 : i + 4 + length]
        if len(value) < length:
            raise ValueError(f"{where}: field {tag} says {length} characters but only {len(value)} are left")
        if tag in fields:
            raise ValueError(f"{where}: field {tag} appears twice")
        fields[tag] = value
        i += 4 + length
    return fields


def parse_payload(text: str) -> dict:
    """The fields of an EMVCo payload by ID; templates (26-51, 62, 64) as nested dicts. The CRC is not
    checked here (see check_crc). Raises ValueError on malformed TLV."""
    if not isinstance(text, str) or not text:
        raise ValueError("payload: empty")
    fields: dict = _parse_fields(text, "payload")
    for tag in fields.keys() & TEMPLATES:
        fields[tag] = _parse_fields(fields[tag], f"template {tag}")
    return fields


def check_crc(text: str) -> bool:
    """Whether the payload ends with field 63 holding the right CRC of everything before it."""
    if not isinstance(text, str) or len(text) < 8 or text[-8:-4] != "6304":
        return False
    given = text[-4:]
    if not re.fullmatch(r"[0-9A-Fa-f]{4}", given):
        return False
    return int(given, 16) == crc16_ccitt(text[:-4].encode("utf-8"))

"""The PayNow (SGQR) payload and its QR code: built, drawn, read back by a real decoder and taken apart."""

import datetime
import io
from dataclasses import replace
from decimal import Decimal

import pytest
import zxingcpp
from PIL import Image

from money.core.paynow import PayNowRequest, build_payload, check_crc, crc16_ccitt, parse_payload
from money.core.qr import qr_png, qr_svg

UEN = "S88SS0001A"
EXPIRES = datetime.date(2025, 3, 15)


def request(**overrides) -> PayNowRequest:
    fields = {
        "proxy_type": "UEN",
        "proxy_value": UEN,
        "merchant_name": "Scrabble Association",
        "amount": Decimal("3.00"),
        "reference": "EV12-7KQ3-X9",
        "expires": EXPIRES,
    }
    return PayNowRequest(**{**fields, **overrides})


def decode(png: bytes) -> str:
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
    assert len(found) == 1
    assert found[0].format == zxingcpp.BarcodeFormat.QRCode
    return found[0].text


def test_crc16_ccitt_false_check_value():
    assert crc16_ccitt(b"123456789") == 0x29B1
    assert crc16_ccitt(b"") == 0xFFFF


def test_matches_a_payload_published_by_another_implementation():
    """The same request built by an independent PayNow library gives these exact bytes."""
    req = PayNowRequest(
        proxy_type="UEN",
        proxy_value="201101550Z",
        merchant_name="Qryptal",
        amount=Decimal("50.00"),
        reference="AJ",
        expires=datetime.date(2020, 11, 27),
    )
    assert build_payload(req) == (
        "00020101021226490009SG.PAYNOW010120210201101550Z03010040820201127"
        "520400005303702540550.005802SG5907Qryptal6009Singapore62060102AJ630488E9"
    )


# The seed event's fees: S$3.00 standard and S$2.00 for concession (events.demo.FEES).
@pytest.mark.parametrize("amount", ["3.00", "2.00"])
def test_seed_fees_round_trip_through_a_real_qr_decoder(amount):
    req = request(amount=Decimal(amount))
    payload = build_payload(req)

    text = decode(qr_png(payload))

    assert text == payload
    assert check_crc(text)
    fields = parse_payload(text)
    assert fields == {
        "00": "01",
        "01": "12",
        "26": {"00": "SG.PAYNOW", "01": "2", "02": UEN, "03": "0", "04": "20250315"},
        "52": "0000",
        "53": "702",
        "54": amount,
        "58": "SG",
        "59": "Scrabble Association",
        "60": "Singapore",
        "62": {"01": "EV12-7KQ3-X9"},
        "63": fields["63"],
    }
    assert text.endswith("6304" + fields["63"])
    assert int(fields["63"], 16) == crc16_ccitt(text[:-4].encode())
    assert fields["63"] == fields["63"].upper()


def test_svg_is_inline_svg_with_a_title_and_an_image_role():
    payload = build_payload(request())
    svg = qr_svg(payload, title="PayNow S$3.00 to Scrabble <Association> & co")

    assert svg.startswith('<svg role="img" ')
    assert svg.rstrip().endswith("</svg>")
    assert "<?xml" not in svg
    assert "<title>PayNow S$3.00 to Scrabble &lt;Association&gt; &amp; co</title>" in svg
    width = int(svg.split('width="', 1)[1].split('"', 1)[0])
    assert 200 <= width <= 280

    assert "<title>" not in qr_svg(payload)


def test_png_scale_sets_the_size_and_must_be_positive():
    payload = build_payload(request())
    small, large = (Image.open(io.BytesIO(qr_png(payload, scale=s))) for s in (2, 8))
    assert large.size[0] == 4 * small.size[0]
    with pytest.raises(ValueError, match="scale"):
        qr_png(payload, scale=0)


def test_mobile_proxy_and_editable_amount_without_expiry():
    req = request(proxy_type="MOBILE", proxy_value="+65 9123 4567", expires=None, editable=True)
    assert req.proxy_value == "+6591234567"
    payload = build_payload(req)

    assert decode(qr_png(payload)) == payload
    assert parse_payload(payload)["26"] == {"00": "SG.PAYNOW", "01": "0", "02": "+6591234567", "03": "1"}
    assert check_crc(payload)


def test_amounts_are_written_with_two_decimals():
    assert parse_payload(build_payload(request(amount=Decimal("12.5"))))["54"] == "12.50"
    assert parse_payload(build_payload(request(amount=7)))["54"] == "7.00"
    assert parse_payload(build_payload(request(amount=Decimal("1234.56"))))["54"] == "1234.56"


@pytest.mark.parametrize(
    "amount", [Decimal("0"), Decimal("0.00"), Decimal("-3.00"), Decimal("3.001"), Decimal("NaN"), 3.0, "3.00"]
)
def test_bad_amounts_are_refused(amount):
    with pytest.raises(ValueError, match="^amount: "):
        request(amount=amount)


@pytest.mark.parametrize("reference", ["", "EV12 7KQ3", "A" * 26, "EV/12", "EV_12", "ÉV12"])
def test_bad_references_are_refused(reference):
    with pytest.raises(ValueError, match="^reference: only letters, digits and hyphens, at most 25$"):
        request(reference=reference)


def test_a_25_character_reference_fits():
    assert parse_payload(build_payload(request(reference="A-" + "9" * 23)))["62"] == {"01": "A-" + "9" * 23}


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"proxy_type": "NRIC"}, "proxy_type"),
        ({"proxy_value": "S88SS001"}, "proxy_value"),
        ({"proxy_value": "S88SS-0001A"}, "proxy_value"),
        ({"proxy_type": "MOBILE", "proxy_value": "91234567"}, "proxy_value"),
        ({"proxy_type": "MOBILE", "proxy_value": "+6561234567"}, "proxy_value"),
        ({"merchant_name": "   "}, "merchant_name"),
        ({"merchant_city": ""}, "merchant_city"),
        ({"expires": "2025-03-15"}, "expires"),
        ({"editable": "no"}, "editable"),
        ({"currency": "SGD"}, "currency"),
    ],
)
def test_other_bad_fields_are_refused_naming_the_field(overrides, field):
    with pytest.raises(ValueError, match=f"^{field}: "):
        request(**overrides)


def test_long_merchant_names_are_cut_to_25_characters_and_reduced_to_ascii():
    req = request(merchant_name="Scrabble Association of Singapore", merchant_city="Singapore Central Region")
    assert req.merchant_name == "Scrabble Association of S"
    assert req.merchant_city == "Singapore Centr"
    fields = parse_payload(build_payload(req))
    assert fields["59"] == "Scrabble Association of S"
    assert fields["60"] == "Singapore Centr"

    assert request(merchant_name="Café  Scrabble\nClub").merchant_name == "Cafe Scrabble Club"
    # A cut that ends on a space does not leave it dangling.
    assert request(merchant_name="Scrabble Associations Of Singapore").merchant_name == "Scrabble Associations Of"


def test_uen_is_upper_cased_and_the_request_is_frozen():
    req = request(proxy_value="s88ss0001a")
    assert req.proxy_value == UEN
    with pytest.raises(AttributeError):
        req.amount = Decimal("1.00")  # type: ignore[misc]
    assert replace(req, amount=Decimal("2.00")).amount == Decimal("2.00")


def test_tampered_payloads_fail_the_crc():
    payload = build_payload(request())
    assert check_crc(payload)
    assert check_crc(payload[:-4] + payload[-4:].lower())
    tampered = payload.replace("54043.00", "54043.01")
    assert tampered != payload
    assert not check_crc(tampered)
    assert not check_crc(payload.replace(UEN, "T08LL0001A"))
    wrong_crc = f"{(int(payload[-4:], 16) + 1) % 0x10000:04X}"
    assert not check_crc(payload[:-4] + wrong_crc)
    assert not check_crc(payload[:-8])
    assert not check_crc("")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "0002010",  # cut inside the value
        "000201AB",  # trailing junk that is no field
        "00020100020101",  # the same ID twice
        "00020126040005",  # a template whose inner field runs past its end
        "0x0201",  # a non-digit ID
    ],
)
def test_malformed_tlv_is_refused(text):
    with pytest.raises(ValueError):
        parse_payload(text)


def test_qr_of_nothing_is_refused():
    with pytest.raises(ValueError, match="payload"):
        qr_svg("")

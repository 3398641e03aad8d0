import random
import string

import pytest

from money.core.references import (
    CHECK_ALPHABET,
    MAX_LENGTH,
    find_references,
    make_reference,
    near_misses,
    parse_reference,
)

E123 = make_reference("E", 123)


def _sample_references():
    rnd = random.Random(7064)
    refs = [make_reference(kind, n) for kind in "EGM" for n in (0, 1, 123, 999_999, 1_000_000)]
    refs += [make_reference(rnd.choice("EGM"), rnd.randrange(10**6)) for _ in range(300)]
    refs += [make_reference(rnd.choice("EGM"), rnd.randrange(10**12)) for _ in range(100)]
    return refs


REFERENCES = _sample_references()


def test_shape():
    assert E123[:7] == "E000123"
    assert len(E123) == 8
    assert make_reference("M", 1_234_567)[:8] == "M1234567"
    longest = make_reference("G", 10 ** (MAX_LENGTH - 2) - 1)
    assert len(longest) == MAX_LENGTH
    for ref in REFERENCES:
        assert ref.isalnum() and ref.isascii() and ref == ref.upper() and len(ref) <= MAX_LENGTH
        assert ref[-1] in CHECK_ALPHABET


def test_the_check_character_is_the_documented_weighted_sum():
    value = {ch: i for i, ch in enumerate(string.digits + string.ascii_uppercase)}
    for ref in REFERENCES[:50]:
        body, check = ref[:-1], ref[-1]
        weighted = sum(value[ch] * 3 ** (len(body) - i) for i, ch in enumerate(body))
        assert (weighted + CHECK_ALPHABET.index(check)) % 31 == 0


def test_the_check_character_never_looks_like_a_digit():
    assert not set("ILOSZ") & set(CHECK_ALPHABET)
    assert len(CHECK_ALPHABET) == len(set(CHECK_ALPHABET)) == 31


def test_round_trip():
    for ref in REFERENCES:
        kind, number = parse_reference(ref)
        assert make_reference(kind, number) == ref
    assert parse_reference(E123) == ("E", 123)


@pytest.mark.parametrize(
    "kind, number",
    [("X", 1), ("e", 1), ("EG", 1), ("", 1), ("E", -1), ("E", 10 ** (MAX_LENGTH - 2))],
)
def test_make_reference_refuses_what_is_not_a_reference(kind, number):
    with pytest.raises(ValueError):
        make_reference(kind, number)


@pytest.mark.parametrize("number", [1.0, "123", True, None])
def test_make_reference_takes_an_int(number):
    with pytest.raises(TypeError):
        make_reference("E", number)


def test_every_single_wrong_character_is_rejected():
    for ref in REFERENCES:
        for i, right in enumerate(ref):
            for wrong in string.digits + string.ascii_uppercase:
                if wrong != right:
                    assert parse_reference(ref[:i] + wrong + ref[i + 1 :]) is None, (ref, i, wrong)


def test_every_swap_of_adjacent_characters_is_rejected():
    # The swap ISO 7064 MOD 37,36 misses (G9985001 and G9895001 both pass it) is caught.
    g = make_reference("G", 998500)
    assert parse_reference(g[:2] + "89" + g[4:]) is None
    for ref in REFERENCES:
        for i in range(len(ref) - 1):
            if ref[i] != ref[i + 1]:
                assert parse_reference(ref[:i] + ref[i + 1] + ref[i] + ref[i + 2 :]) is None, (ref, i)


def test_a_dropped_or_doubled_character_is_rejected_below_100000():
    # Too few digits, or a leading zero the canonical form does not have.
    for ref in [make_reference(kind, n) for kind in "EGM" for n in (0, 7, 123, 4567, 99_999)]:
        for i in range(len(ref)):
            assert parse_reference(ref[:i] + ref[i + 1 :]) is None, (ref, i)
            assert parse_reference(ref[:i] + ref[i] + ref[i:]) is None, (ref, i)


def test_only_the_canonical_padding():
    # E0000123 + its own check would be a second reference for entry 123; it is not one.
    body = "E0000123"
    for check in CHECK_ALPHABET:
        assert parse_reference(body + check) is None


def test_case_spaces_and_hyphens_are_forgiven():
    spaced = f"{E123[0]}-{E123[1:7]}-{E123[7]}"
    assert parse_reference(spaced.lower()) == ("E", 123)
    assert parse_reference(f"  {E123[:4]} {E123[4:]} ") == ("E", 123)
    assert parse_reference(f"{E123[:1]} - {E123[1:4]}  {E123[4:]}".lower()) == ("E", 123)


@pytest.mark.parametrize(
    "text",
    ["", "E", "E000123", "E00012", "E000123/", "E000123.", "X000123A", "E12345AB", "E000123?", "E٠٠٠123"],
)
def test_what_is_not_a_reference(text):
    assert parse_reference(text) is None
    assert parse_reference(text + E123[-1]) in (None, ("E", 123))


def test_non_text_is_not_a_reference():
    assert parse_reference(None) is None
    assert find_references(None) == []


def test_find_in_a_bank_description():
    g7 = make_reference("G", 7)
    m42 = make_reference("M", 42)
    text = f"PAYNOW TRF FROM TAN AH KOW OTHR {E123} SCRABBLE"
    assert find_references(text) == [("E", 123)]
    assert find_references(f"REF:{g7.lower()}/{m42} {g7}") == [("G", 7), ("M", 42)]
    assert find_references(f"FAST PAYMENT {m42}, {E123}") == [("M", 42), ("E", 123)]


def test_find_references_written_with_spaces_or_hyphens():
    text = f"TAN AH KOW {E123[0]}-{E123[1:7]}-{E123[7]} ENTRY"
    assert find_references(text) == [("E", 123)]
    assert find_references(f"OTHR {E123[:4]} {E123[4:]}") == [("E", 123)]
    # The shortest reading wins: a word after a whole reference is not swallowed.
    assert find_references(f"{E123} 5 PAX") == [("E", 123)]


def test_find_ignores_similar_tokens():
    wrong = E123[:-1] + next(c for c in CHECK_ALPHABET if c != E123[-1])
    swapped = E123[:5] + E123[6] + E123[5] + E123[7]
    text = (
        f"INV000123K E000123 {wrong} {swapped} X{E123[1:]} 98765432 S1234567A PAYNOW 20240105 "
        f"OTHR{E123} {E123}XYZ E-12 E 000 123"
    )
    assert find_references(text) == []


def test_find_references_in_order_without_duplicates():
    g7 = make_reference("G", 7)
    assert find_references(f"{g7} {E123} {g7.lower()} {E123}") == [("G", 7), ("E", 123)]


def test_a_reference_typed_with_a_slip_is_noticed_as_one():
    good = make_reference("E", 188)
    slip = good[:-1] + ("0" if good[-1] != "0" else "1")
    assert near_misses(f"PAYNOW FROM TAN {slip} SCRABBLE") == [slip]
    assert near_misses(f"PAYNOW FROM TAN {good}") == []  # a valid one is found instead
    assert near_misses("INVOICE 20261122 E12 M") == []  # too short to be one

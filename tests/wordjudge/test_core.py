"""The word judge's pure core: reading lists, packing them, looking words up, judging a play."""

import pytest

from wordjudge.core import BadPlay, WordList, judge_play, normalise_word, pack, parse_word_list, split_play

WORDS = ["QI", "ZA", "CAT", "CATS", "DOG", "QAT", "AA", "XYST", "OXYPHENBUTAZONE"]


def test_normalise_word_uppercases_strips_and_refuses_anything_but_letters():
    assert normalise_word("  qat\r\n") == "QAT"
    assert normalise_word("Za") == "ZA"
    assert normalise_word("CAT'S") is None
    assert normalise_word("CAT S") is None
    assert normalise_word("CAFÉ") is None
    assert normalise_word("A1") is None
    assert normalise_word("   ") is None


def test_parse_word_list_skips_blank_lines_dedupes_and_numbers_bad_lines():
    parsed = parse_word_list(["cat", "", "Dog ", "CAT", "do-g", "  ", "x y", "qi"])
    assert parsed.words == ["CAT", "DOG", "QI"]
    assert parsed.bad_count == 2
    assert [(b.number, b.text) for b in parsed.bad_lines] == [(5, "do-g"), (7, "x y")]


def test_parse_word_list_reports_at_most_twenty_bad_lines_but_counts_all():
    parsed = parse_word_list([f"w{i}" for i in range(50)])
    assert parsed.bad_count == 50 and len(parsed.bad_lines) == 20 and parsed.bad_lines[0].number == 1


def test_a_packed_list_unpacks_to_the_same_words():
    word_list = WordList.unpack(pack(WORDS))
    assert len(word_list) == len(WORDS)
    for word in WORDS:
        assert word in word_list
    for word in ["CA", "CATSS", "QIS", "DOGS", "A", "", "ZZZZZZZZZZZZZZZZ", "cat"]:
        assert word not in word_list
    assert 5 not in word_list


def test_an_empty_list_holds_nothing():
    word_list = WordList.unpack(pack([]))
    assert len(word_list) == 0 and "CAT" not in word_list


def test_every_word_of_a_larger_list_is_found_and_its_neighbours_are_not():
    import random
    import string

    rng = random.Random(7)
    words = sorted({"".join(rng.choices(string.ascii_uppercase, k=rng.randint(2, 15))) for _ in range(5000)})
    word_list = WordList(words)
    assert all(w in word_list for w in words)
    missing = {w[:-1] + chr((ord(w[-1]) - 64) % 26 + 65) for w in words} - set(words)
    assert not any(w in word_list for w in missing)


@pytest.mark.parametrize(
    "typed, words",
    [
        ("cat", ["CAT"]),
        ("cat, qi", ["CAT", "QI"]),
        ("  Cat;qi /za + dog  ", ["CAT", "QI", "ZA", "DOG"]),
        ("cat\tcats", ["CAT", "CATS"]),
        ("qi qi", ["QI", "QI"]),  # each word challenged counts, even twice
    ],
)
def test_split_play_reads_the_words_as_players_type_them(typed, words):
    assert split_play(typed) == words


@pytest.mark.parametrize(
    "typed, says",
    [
        ("", "Type the word"),
        (" , ", "Type the word"),
        ("cat d0g", "letters only"),
        ("ABCDEFGHIJKLMNOP", "longer than 15"),
        (" ".join(["QI"] * 13), "at most 12"),
    ],
)
def test_split_play_refuses_what_is_not_a_play(typed, says):
    with pytest.raises(BadPlay, match=says):
        split_play(typed)


def test_a_play_is_acceptable_only_when_every_word_is():
    word_list = WordList(WORDS)
    assert judge_play(["CAT"], word_list) is True
    assert judge_play(["CAT", "QI", "ZA"], word_list) is True
    assert judge_play(["CAT", "QIS"], word_list) is False
    assert judge_play(["CATX"], word_list) is False

"""The one matching rule (players.matching), worked by hand from the rule in its docstring."""

from datetime import date

from players.matching import LIKELY, NEW, SURE, Person, Record, match, name_key, normalise

BORN = date(2014, 3, 25)
TAN = Record(id=1, member_number=1066, full_name="Tan Ah Kow", date_of_birth=BORN, email="tak@example.org")
LIM = Record(id=2, member_number=1070, full_name="Lim Bee Hoon", date_of_birth=date(2013, 1, 2))
LIM2 = Record(id=3, member_number=1071, full_name="Bee Hoon Lim")  # the same name, family name last
SMITH = Record(id=4, member_number=1080, full_name="John Smith", display_name="Johnny Smith")
RECORDS = [TAN, LIM, LIM2, SMITH]


def test_a_name_is_compared_in_either_order_of_the_family_name_and_without_case_accents_or_punctuation():
    # The words turned round: "tan ah kow", "ah kow tan", "kow tan ah"; the first in alphabetical order is the key.
    assert name_key("Tan Ah Kow") == name_key("Ah Kow Tan") == name_key("Tan, Ah Kow") == "ah kow tan"
    assert name_key("  TAN   ah-kow ") == "ah kow tan"
    assert normalise("José Tan-Lim") == "jose tan lim"
    assert name_key("Kow Ah Tan") != name_key("Tan Ah Kow")  # not a family name moved: another name
    assert name_key("") == "" and name_key("--") == ""


def test_the_member_number_is_sure_whatever_the_name():
    found = match(Person(full_name="Someone Else", member_number=1066), RECORDS)
    assert (found.kind, found.record, found.why) == (SURE, TAN, "member number")


def test_the_same_name_and_date_of_birth_is_sure_in_any_order():
    for written in ("Tan Ah Kow", "Ah Kow Tan", "Tan, Ah Kow"):
        found = match(Person(full_name=written, date_of_birth=BORN), RECORDS)
        assert (found.kind, found.record, found.why) == (SURE, TAN, "name and date of birth")


def test_the_same_name_and_email_is_sure():
    found = match(Person(full_name="Ah Kow Tan", email="TAK@example.org "), RECORDS)
    assert (found.kind, found.record, found.why) == (SURE, TAN, "name and email")


def test_the_same_name_with_another_date_of_birth_is_only_likely():
    found = match(Person(full_name="Tan Ah Kow", date_of_birth=date(2014, 3, 26)), RECORDS)
    assert (found.kind, found.likely) == (LIKELY, (TAN,))


def test_a_page_that_could_ask_the_date_of_birth_is_not_sure_of_a_name_alone():
    assert match(Person(full_name="Tan Ah Kow"), RECORDS).kind == LIKELY
    # A file knows nothing more: the one member of that name is the match.
    found = match(Person(full_name="Tan, Ah Kow", name_is_all=True), RECORDS)
    assert (found.kind, found.record, found.why) == (SURE, TAN, "the only record of that name")


def test_two_records_of_the_name_are_to_choose_from():
    found = match(Person(full_name="Lim Bee Hoon", name_is_all=True), RECORDS)
    assert found.kind == LIKELY and set(found.likely) == {LIM, LIM2}
    # The date of birth tells them apart: the one born that day is sure.
    found = match(Person(full_name="Lim Bee Hoon", date_of_birth=date(2013, 1, 2)), RECORDS)
    assert (found.kind, found.record) == (SURE, LIM)


def test_a_close_name_is_likely_only_with_the_same_date_of_birth_or_email_unless_the_name_is_all():
    # "tan ah kou" against "tan ah kow": 9 of 10 characters in order, ratio 0.9 >= 0.85.
    assert match(Person(full_name="Tan Ah Kou", date_of_birth=BORN), RECORDS).likely == (TAN,)
    assert match(Person(full_name="Tan Ah Kou", date_of_birth=date(2010, 1, 1)), RECORDS).kind == NEW
    assert match(Person(full_name="Tan Ah Kou", name_is_all=True), RECORDS).likely == (TAN,)
    # The same words in another order are close too.
    assert match(Person(full_name="Kow Ah Tan", email="tak@example.org"), RECORDS).likely == (TAN,)


def test_the_same_email_under_another_name_is_likely():
    found = match(Person(full_name="Andy Tan", email="tak@example.org"), RECORDS)
    assert (found.kind, found.likely) == (LIKELY, (TAN,))


def test_a_display_name_is_a_name_of_the_record():
    found = match(Person(full_name="Smith, Johnny", name_is_all=True), RECORDS)
    assert (found.kind, found.record) == (SURE, SMITH)


def test_nobody_like_the_person_is_new():
    assert match(Person(full_name="Nora Newcomer", date_of_birth=BORN), RECORDS).kind == NEW
    assert match(Person(full_name="Nora Newcomer", name_is_all=True), RECORDS).kind == NEW


def test_a_huge_name_is_compared_as_written_without_turning_it_round():
    long = " ".join(["Tan"] * 100_000)
    assert name_key(long) == " ".join(["tan"] * 100_000)
    assert match(Person(full_name=long + "\x00", name_is_all=True), RECORDS).kind == NEW

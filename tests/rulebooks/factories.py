"""Rule books made through their service, as staff publish them."""

from datetime import date

from rulebooks import services
from rulebooks.models import RuleBook
from tests.factories import AssociationFactory, UserFactory


def staff_user():
    return UserFactory(is_staff=True)


def rule_book(association=None, versions=("1. Play fair.",), *, club=None, title="Tournament Rules", slug="rules"):
    """A rule book with one published version per text given (each after the first saying what changed)."""
    staff = staff_user()
    book = services.save_book(
        staff, RuleBook(association=association or AssociationFactory(), club=club, title=title, slug=slug)
    )
    published = []
    for number, text in enumerate(versions, start=1):
        changes = f"Change {number}." if number > 1 else ""
        published.append(
            services.publish_version(staff, book, text=text, changes=changes, effective_on=date(2020 + number, 1, 1))
        )
    return book, published

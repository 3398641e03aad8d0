"""The one style of every email's subject about events and money: the site's name in brackets (as the account
emails have it), what happened, then what it is about."""

from django.conf import settings


def subject(what: str, about: str = "") -> str:
    """`[Scrabble Association] Entry received – Jurong Green Students' Championship`, on one line."""
    text = f"{what} – {about}" if about else what
    return " ".join(f"[{settings.SITE_NAME}] {text}".split())

"""The site's name and public address for email, both from settings (SITE_NAME, SITE_URL).

Emails are rendered by services and background tasks that have no request, so no link may be built
from a request's host: every link in an email is `absolute_url(path)`.
"""

from types import SimpleNamespace
from urllib.parse import urlsplit

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse


def absolute_url(path: str) -> str:
    """The public address of a path on this site, e.g. /members/me/ -> https://scrabble.example.org/members/me/."""
    return settings.SITE_URL.rstrip("/") + path


def url_for(name: str, *args, **kwargs) -> str:
    return absolute_url(reverse(name, args=args or None, kwargs=kwargs or None))


def site() -> SimpleNamespace:
    """Stands in for django.contrib.sites' Site, which allauth's templates read as `current_site`."""
    return SimpleNamespace(name=settings.SITE_NAME, domain=urlsplit(settings.SITE_URL).netloc)


def site_context() -> dict:
    return {"SITE_NAME": settings.SITE_NAME, "SITE_URL": settings.SITE_URL.rstrip("/"), "current_site": site()}


def render(template: str, context: dict) -> str:
    """A plain-text email body with the site's name and address available to the template."""
    return render_to_string(template, {**site_context(), **context}).strip() + "\n"

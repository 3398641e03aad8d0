"""Every asset a page makes the browser fetch is there: admin pages used to log a 404 for /favicon.ico."""

import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

ADMIN_PAGES = ["admin:index", "admin:players_player_changelist", "admin:players_playerclaim_changelist"]


def fetched_assets(html: str) -> list[str]:
    """What a browser loads for the page: stylesheets, scripts, images and icons."""
    tags = re.findall(r"<(?:link|script|img)\b[^>]*>", html)
    return [m.group(1) for tag in tags if (m := re.search(r'(?:href|src)="([^"#]+)"', tag))]


def assert_assets_resolve(html: str, client):
    assets = fetched_assets(html)
    assert assets
    for url in assets:
        if url.startswith("/static/"):
            assert finders.find(url.removeprefix("/static/")), f"missing static file {url}"
        else:  # served by a view, e.g. the admin's /admin/jsi18n/
            assert client.get(url).status_code == 200, url


def assert_declares_an_icon(html: str):
    icon = re.search(r'<link rel="icon" href="([^"]+)"', html)
    assert icon, "no icon: the browser asks for /favicon.ico instead"
    assert finders.find(icon.group(1).removeprefix("/static/"))


@pytest.mark.parametrize("name", ADMIN_PAGES)
def test_admin_pages_fetch_only_assets_that_exist(admin_client, name):
    html = admin_client.get(reverse(name)).content.decode()
    assert_declares_an_icon(html)
    assert_assets_resolve(html, admin_client)


def test_admin_login_and_site_pages_declare_the_icon(client):
    # The admin's log-in sends to the site's log-in page (followed here).
    for url in [reverse("admin:login"), reverse("home"), reverse("account_login"), reverse("players:directory")]:
        html = client.get(url, follow=True).content.decode()
        assert_declares_an_icon(html)
        assert_assets_resolve(html, client)


def test_favicon_ico_at_the_root_is_served():
    """Browsers ask for /favicon.ico on pages that name no icon (the API's JSON, files, old browsers)."""
    response = Client().get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] in ("image/x-icon", "image/vnd.microsoft.icon")


def test_admin_is_headed_with_the_site_name(admin_client, settings):
    assert f"{settings.SITE_NAME} administration" in admin_client.get(reverse("admin:index")).content.decode()

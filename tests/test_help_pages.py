"""The help page on pairing and rating is the project's document, shown on the site and linked where it is used."""

import pytest
from django.urls import reverse

from clubsite.help_pages import DOCS, PAGES
from events.play.core.pairing import SYSTEMS
from events.play.core.pairing.tsh_commands import system_label


@pytest.mark.django_db
def test_the_pairing_and_rating_page_shows_the_document(client) -> None:
    response = client.get(reverse("help", args=["pairing-and-ratings"]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>How the site pairs and rates</h1>" in html
    assert "<code>koth REPEATS SR DIV</code>" in html
    # The table of systems is a table, not its Markdown.
    assert "<table>" in html and "<td>King of the Hill</td>" in html and "| the site |" not in html


@pytest.mark.django_db
def test_an_unknown_help_page_is_not_found(client) -> None:
    assert client.get("/help/..%2Fsettings/").status_code == 404
    assert client.get(reverse("help", args=["settings"])).status_code == 404


def test_the_document_describes_every_pairing_system_the_site_offers() -> None:
    text = (DOCS / PAGES["pairing-and-ratings"]).read_text()
    for key in SYSTEMS:
        label = system_label(key)
        name, _, command = label.partition(" (tsh ")
        assert f"| {name} | `{command.rstrip(')')}" in text, f"{label} is missing from the table"

"""Event emails are plain text: Markdown from the event page reads as words, and links use the public address."""

import re

import pytest
from django.core import mail

from events import services
from events.templatetags.events_tags import markdown_to_text
from tests.events.factories import fast_passwords, open_event, player_with_account  # noqa: F401

pytestmark = pytest.mark.django_db

PAYMENT = """Pay **in person** at Jurong Green CC, or by *cheque* payable to _Jurong Green CCMC_.

1. Write your name on the back
2. Bring it to the [front desk](https://jurong.example.org/desk)

- PayNow: `S12345678A`
- Questions: [fees@example.org](mailto:fees@example.org)"""


def test_markdown_to_text_keeps_the_words_and_drops_the_marks():
    text = markdown_to_text(PAYMENT)
    assert text.startswith("Pay in person at Jurong Green CC, or by cheque payable to Jurong Green CCMC.")
    assert "1. Write your name on the back\n2. Bring it to the front desk (https://jurong.example.org/desk)" in text
    assert "- PayNow: S12345678A\n- Questions: fees@example.org" in text
    assert not re.search(r"[*_`\[\]<>]", text), text
    assert markdown_to_text("Fish & chips, 5 > 3") == "Fish & chips, 5 > 3"
    assert markdown_to_text("") == ""


def test_entry_email_shows_payment_instructions_as_plain_text_and_links_to_the_site(settings, on_commit):
    settings.SITE_NAME = "Scrabble Association of Testland"
    settings.SITE_URL = "https://scrabble.example.org"
    event, category, (fee,) = open_event(quota=10, payment_instructions=PAYMENT)
    player = player_with_account()
    with on_commit(execute=True):
        services.register_entry(player.user, event, category=category, fee=fee)
    [message] = mail.outbox
    assert "Pay in person at Jurong Green CC" in message.body
    assert "**" not in message.body and "](" not in message.body
    assert "Scrabble Association of Testland" in message.body
    links = re.findall(r"https?://\S+", message.body)
    assert f"https://scrabble.example.org{event.get_absolute_url()}" in links
    assert all(
        link.startswith("https://scrabble.example.org/") or link.startswith("https://jurong.example.org/")
        for link in links
    ), links

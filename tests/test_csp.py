"""A strict Content-Security-Policy is sent, and no template could need more: no inline handlers or scripts."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
HANDLER = re.compile(r"\son[a-z]+\s*=", re.IGNORECASE)
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)


@pytest.mark.django_db
def test_pages_send_a_policy_that_allows_only_the_sites_own_scripts(client):
    policy = client.get(reverse("home"))["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy


@pytest.mark.django_db
def test_only_the_api_documentation_page_goes_without_it(client):
    assert "Content-Security-Policy" not in client.get(reverse("api-docs"))


def test_no_template_has_an_inline_handler_or_script():
    offences = []
    for path in TEMPLATES.rglob("*.html"):
        text = path.read_text()
        offences += [f"{path.relative_to(TEMPLATES)}: {m.group(0).strip()}" for m in HANDLER.finditer(text)]
        offences += [f"{path.relative_to(TEMPLATES)}: inline script" for _ in INLINE_SCRIPT.finditer(text)]
    assert offences == []


def test_the_check_finds_them():
    assert HANDLER.search('<form onsubmit="return confirm(1)">') and INLINE_SCRIPT.search("<script>alert(1)</script>")
    assert not HANDLER.search('<form data-confirm="Sure?">') and not INLINE_SCRIPT.search('<script src="/a.js">')

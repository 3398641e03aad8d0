"""Every page names itself in the browser's title bar and tab, not only the association."""

from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"


def test_every_page_template_that_extends_the_base_sets_its_own_title():
    untitled = [
        str(path.relative_to(TEMPLATES))
        for path in TEMPLATES.rglob("*.html")
        if '{% extends "base.html" %}' in (text := path.read_text()) and "{% block title %}" not in text
    ]
    # The home page is the association's own page: its name is its title.
    assert untitled == ["home.html"]


def test_every_screen_page_title_ends_with_the_associations_name():
    """Printed sheets (print_*) carry the event in their own header and are left out."""
    missing = [
        str(path.relative_to(TEMPLATES))
        for path in TEMPLATES.rglob("*.html")
        if not path.name.startswith("print_")
        and "{% block title %}" in (text := path.read_text())
        and "{{ SITE_NAME }}{% endblock %}" not in text.split("{% block title %}", 1)[1].split("\n", 1)[0]
    ]
    assert missing == []

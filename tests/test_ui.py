"""The interface toolkit: QuickSelect writes the same select as Django's template-rendered one."""

import re

import pytest
from django import forms

from clubsite.kit.ui import QuickSelect
from players.models import Club
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db


def _form(widget):
    class Filter(forms.Form):
        club = forms.ModelChoiceField(
            queryset=Club.objects.order_by("name"), required=False, empty_label="All clubs", widget=widget
        )
        kind = forms.ChoiceField(
            choices=[("", "All kinds"), ("Clubs & schools", [("open", "Open <rated>"), ("schools", "Schools")])],
            required=False,
            widget=widget,
        )

    return Filter


def _attributes(html: str) -> str:
    """The HTML with each tag's attributes in one order (Django and QuickSelect may order them differently)."""

    def tag(match):
        name, attrs = match.group(1), re.findall(r'\s([\w-]+)(?:="([^"]*)")?', match.group(2))
        return "<" + name + "".join(f' {k}="{v}"' for k, v in sorted(attrs)) + ">"

    return re.sub(r"<(\w+)((?:\s[^>]*)?)>", tag, html)


@pytest.mark.parametrize("data", [None, {"club": "second", "kind": "open"}, {"club": "nowhere"}])
def test_quick_select_writes_what_the_select_template_writes(data):
    first, second = ClubFactory(name="Jurong & Green"), ClubFactory(name="Second <Club>")
    values = {"club": str(second.pk), "kind": "open"} if data and data.get("club") == "second" else data
    plain, quick = _form(forms.Select)(values), _form(QuickSelect)(values)
    plain.is_valid(), quick.is_valid()
    for name in ("club", "kind"):
        attrs = {"id": f"id_{name}", "class": "form-select"}
        assert _attributes(quick[name].as_widget(attrs=attrs)) == _attributes(
            re.sub(r">\s+<", "><", plain[name].as_widget(attrs=attrs)).strip()
        )
    assert "Jurong &amp; Green" in quick["club"].as_widget() and first.name not in quick["club"].as_widget()

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


def test_a_refusal_because_the_person_may_not_is_a_403_with_its_message(rf):
    """run_service: NotAllowed (someone else's entry, a director's action) answers 403 with the service's words, as
    the API does; any other refusal becomes a message on the page and the answer None."""
    from django.contrib.messages.storage.fallback import FallbackStorage
    from django.core.exceptions import PermissionDenied

    from clubsite.kit.errors import NotAllowed, ServiceError
    from clubsite.kit.ui import run_service

    request = rf.post("/")
    request.session = {}
    request._messages = FallbackStorage(request)

    def refuse(error):
        raise error

    with pytest.raises(PermissionDenied, match="That is not your entry."):
        run_service(request, lambda: refuse(NotAllowed("That is not your entry.")))
    assert run_service(request, lambda: refuse(ServiceError("The event is full."))) is None
    assert [str(m) for m in request._messages] == ["The event is full."]

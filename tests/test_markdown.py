"""Text people type, as pages show it: Markdown is rendered by one renderer whose time grows in step with the text
(nested brackets once took half a minute a view), once, when the text is saved; free text has a length limit that
every door refuses with a message naming the field."""

import importlib
import time
from datetime import date

import pytest
from django.apps import apps as django_apps
from django.contrib.admin.sites import site as admin_site
from django.core.exceptions import ValidationError
from django.test import RequestFactory
from django.urls import reverse

from clubsite.kit.api import ModelSerializer
from clubsite.kit.text import LONG_TEXT, markdown_html, markdown_text
from events import services
from events.models import Event
from events.services import EventError
from money.models import PaymentSettings
from players.models import Association, PlayerClaim
from tests.events.factories import EventFactory, fast_passwords, make_organiser, player_with_account  # noqa: F401
from tests.factories import AssociationFactory, PlayerFactory, UserFactory

NESTED_BRACKETS = "[" * 6000 + "]" * 6000
TWO_MEGABYTES = "a" * 2_000_000
EVENT_FORM = {
    "title": "Toa Payoh Rapid Cup 2027",
    "kind": "tournament",
    "starts_on": "2027-02-13",
    "time_zone": "Asia/Singapore",
    "number_of_games": "7",
    "pairing_system": "koth",
    "time_control_minutes": "25",
    "registration_opens_at": "2027-01-01T09:00",
    "registration_closes_at": "2027-02-06T23:59",
    "payment_hold_hours": "72",
    "offer_hold_hours": "48",
    "max_group_size": "15",
    "bye_spread": "50",
    "forfeit_spread": "50",
    "late_forfeit_spread": "100",
}
TOO_LONG = "The description can be at most 20,000 characters long; this one has 2,000,000."


# --- the renderer ------------------------------------------------------------------------------------------------


def test_nested_brackets_render_in_well_under_a_second():
    started = time.perf_counter()
    html = markdown_html(NESTED_BRACKETS)
    assert time.perf_counter() - started < 1.0
    assert html.startswith("<p>[[[") and html.count("[") == 6000


@pytest.mark.parametrize(
    "text",
    ["![" * 10_000, "*_" * 10_000, "[a](" * 5_000, "<a " * 6_600, "`a``" * 5_000, "&" * LONG_TEXT],
    ids=["images", "emphasis", "links", "tags", "code", "entities"],
)
def test_any_text_of_the_longest_allowed_length_renders_in_well_under_a_second(text):
    started = time.perf_counter()
    markdown_html(text[:LONG_TEXT])
    assert time.perf_counter() - started < 1.0


def test_the_renderer_keeps_markdown_and_drops_what_could_run():
    html = markdown_html(
        "Prizes for the **top 10**.<script>alert('x')</script>\n\n"
        "[site](https://example.org) [bad](javascript:alert(1)) <img src=x onerror=alert(1)>"
    )
    assert "<strong>top 10</strong>" in html
    assert '<a href="https://example.org" rel="nofollow noopener">site</a>' in html
    assert "<script" not in html and "alert('x')" not in html
    assert 'href="javascript:' not in html and "onerror" not in html
    assert markdown_html("") == ""


def test_an_email_reads_the_same_renderer_as_plain_text():
    assert (
        markdown_text("1. Pay **now**\n2. See [us](https://example.org)")
        == "1. Pay now\n2. See us (https://example.org)"
    )
    assert markdown_text("3. Third\n4. Fourth") == "3. Third\n4. Fourth"


# --- rendered once, when saved -----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_service_stores_the_rendered_texts():
    AssociationFactory()
    organiser = make_organiser()
    event = services.create_event(
        organiser,
        title="Rapid Cup",
        starts_on=date(2027, 2, 13),
        description="Prizes for the **top 10**.",
        rules_agreement="I agree to _the rules_.",
        payment_instructions="Pay at the [desk](https://example.org/desk).",
    )
    assert event.description_html == "<p>Prizes for the <strong>top 10</strong>.</p>\n"
    assert event.rules_agreement_html == "<p>I agree to <em>the rules</em>.</p>\n"
    assert '<a href="https://example.org/desk" rel="nofollow noopener">desk</a>' in event.payment_instructions_html
    services.update_event(organiser, event, description="Now *twelve* prizes.")
    event.refresh_from_db()
    assert event.description_html == "<p>Now <em>twelve</em> prizes.</p>\n"


@pytest.mark.django_db
def test_the_page_shows_the_stored_html_without_rendering_anything(client, monkeypatch):
    event = EventFactory(description="x", rules_agreement="x", payment_instructions="x")
    Event.objects.filter(pk=event.pk).update(
        description_html="<p>As <strong>stored</strong></p>",
        rules_agreement_html="<p>Rules <em>as stored</em></p>",
        payment_instructions_html="<p>Pay <em>as stored</em></p>",
    )

    def refuse(text):
        raise AssertionError("Markdown rendered while showing a page")

    monkeypatch.setattr("clubsite.kit.text.markdown_html", refuse)
    client.force_login(player_with_account().user)
    page = client.get(reverse("events:detail", args=[event.slug])).content.decode()
    assert "<p>As <strong>stored</strong></p>" in page and "<p>Pay <em>as stored</em></p>" in page
    assert "<p>Rules <em>as stored</em></p>" in client.get(reverse("events:enter", args=[event.slug])).content.decode()


@pytest.mark.django_db
def test_the_admin_stores_the_rendered_texts_too():
    event = EventFactory(description="Old")
    admin = admin_site._registry[Event]
    event.description = "New **words**"
    request = RequestFactory().post("/")
    request.user = UserFactory(is_staff=True, is_superuser=True)
    admin.save_model(request, event, form=None, change=True)
    event.refresh_from_db()
    assert event.description_html == "<p>New <strong>words</strong></p>\n"


@pytest.mark.django_db
def test_the_migration_renders_the_texts_of_existing_events():
    event = EventFactory(description="Old **text**", payment_instructions="Pay *now*")
    Event.objects.filter(pk=event.pk).update(description_html="", payment_instructions_html="")
    migration = importlib.import_module("events.migrations.0020_event_texts_bounded_and_rendered")
    migration.render_existing_texts(django_apps, None)
    event.refresh_from_db()
    assert event.description_html == "<p>Old <strong>text</strong></p>\n"
    assert event.payment_instructions_html == "<p>Pay <em>now</em></p>\n"
    assert event.rules_agreement_html == ""


# --- length limits -----------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_two_megabyte_description_is_refused_on_the_form_beside_the_field(client):
    AssociationFactory()
    client.force_login(make_organiser())
    response = client.post(reverse("events:create"), {**EVENT_FORM, "description": TWO_MEGABYTES})
    assert response.status_code == 200
    assert response.context["form"].errors["description"] == [TOO_LONG]
    assert TOO_LONG in response.content.decode()
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_the_service_refuses_it_for_every_other_door():
    AssociationFactory()
    with pytest.raises(EventError) as refusal:
        services.create_event(make_organiser(), title="Cup", starts_on=date(2027, 2, 13), description=TWO_MEGABYTES)
    assert (refusal.value.field, refusal.value.message) == ("description", TOO_LONG)
    event = EventFactory()
    with pytest.raises(EventError) as refusal:
        services.update_event(event.owner, event, payment_instructions="x" * 10_001)
    assert refusal.value.field == "payment_instructions"
    assert refusal.value.message.startswith("The payment instructions can be at most 10,000 characters long")
    with pytest.raises(EventError) as refusal:
        services.cancel_event(event.owner, event, "x" * 2_001)
    assert refusal.value.field == "cancellation_reason"
    event.refresh_from_db()
    assert event.status != "cancelled"


def test_an_api_serializer_of_the_model_refuses_it_with_the_field_named():
    """The API's serializers are built from the models (clubsite.kit.api.ModelSerializer): the limit comes along."""

    class EventTexts(ModelSerializer):
        class Meta:
            model = Event
            fields = ["description", "rules_agreement", "payment_instructions", "refund_policy"]

    data = EventTexts(data={"description": TWO_MEGABYTES})
    assert not data.is_valid()
    assert [str(m) for m in data.errors["description"]] == [TOO_LONG]
    assert EventTexts(data={"description": "a" * LONG_TEXT}).is_valid()


@pytest.mark.parametrize(
    ("model", "field", "limit", "what"),
    [
        (Event, "rules_agreement", 20_000, "rules and indemnity"),
        (Event, "refund_policy", 5_000, "refund policy"),
        (Association, "renewal_payment_instructions", 5_000, "renewal payment instructions"),
        (PlayerClaim, "message", 2_000, "message"),
        (PaymentSettings, "address", 2_000, "address"),
    ],
)
def test_every_free_text_people_type_has_a_limit(model, field, limit, what):
    model_field = model._meta.get_field(field)
    model_field.run_validators("a" * limit)
    with pytest.raises(ValidationError) as refusal:
        model_field.run_validators("a" * (limit + 1))
    assert refusal.value.messages == [
        f"The {what} can be at most {limit:,} characters long; this one has {limit + 1:,}."
    ]


@pytest.mark.django_db
def test_an_over_long_claim_message_is_refused_beside_the_field(client):
    user = UserFactory()
    record = PlayerFactory()
    client.force_login(user)
    response = client.post(reverse("players:claim"), {"member_number": record.member_number, "message": "x" * 2_001})
    assert response.status_code == 200
    assert response.context["claim_form"].errors["message"][0].startswith("The message can be at most 2,000 characters")
    assert not PlayerClaim.objects.exists()


# --- line breaks in an event's texts -----------------------------------------------------------------------------

LINES = "Rule 1 does not apply.\nRule 2 applies twice."
ON_TWO_LINES = "<p>Rule 1 does not apply.<br>\nRule 2 applies twice.</p>\n"


def test_a_single_line_break_is_kept_only_when_asked():
    assert markdown_html(LINES, line_breaks=True) == ON_TWO_LINES
    assert markdown_html(LINES) == "<p>Rule 1 does not apply.\nRule 2 applies twice.</p>\n"  # documents: CommonMark
    assert markdown_text(LINES, line_breaks=True) == LINES
    assert markdown_html("- a\n- b\n\nNext", line_breaks=True) == "<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n<p>Next</p>\n"


@pytest.mark.django_db
def test_every_markdown_text_of_an_event_keeps_the_lines_the_organiser_typed(client):
    """Amendments typed on two lines are two lines on the public page, not one run-on paragraph; so are the
    description, the rules agreement and the payment instructions, and the email's reading of them."""
    event = EventFactory()
    services.update_event(event.owner, event, **{source: LINES for source in Event.MARKDOWN_FIELDS})
    event.refresh_from_db()
    for rendered in Event.MARKDOWN_FIELDS.values():
        assert getattr(event, rendered) == ON_TWO_LINES, rendered
    assert ON_TWO_LINES.strip() in client.get(reverse("events:detail", args=[event.slug])).content.decode()
    from events.templatetags.events_tags import markdown_to_text

    assert markdown_to_text(LINES) == LINES


@pytest.mark.django_db
def test_the_migration_renders_the_line_breaks_of_existing_events():
    event = EventFactory(rule_amendments=LINES, description=LINES)
    Event.objects.filter(pk=event.pk).update(
        rule_amendments_html=markdown_html(LINES), description_html=markdown_html(LINES)
    )
    migration = importlib.import_module("events.migrations.0030_event_texts_keep_line_breaks")
    migration.render_existing_texts(django_apps, None)
    event.refresh_from_db()
    assert event.rule_amendments_html == ON_TWO_LINES and event.description_html == ON_TWO_LINES

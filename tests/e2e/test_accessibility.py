"""Every kind of page passes axe-core with no violations, as each role sees it, on the demo data."""

import json
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.conftest import skip_or_fail

from .conftest import PHONE, log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
DEMO_PASSWORD = "scrabble-demo-2026"


def violations(page) -> list[str]:
    """axe-core's findings for the page as shown (WCAG 2.1 A and AA rules and best practices)."""
    # Evaluated through the browser's debugging protocol: the site's own CSP would refuse a script tag.
    page.evaluate(AXE.read_text())
    found = page.evaluate("async () => (await axe.run(document)).violations")
    return [f"{v['id']}: {v['help']} ({len(v['nodes'])}x, e.g. {v['nodes'][0]['target']})" for v in found]


@pytest.fixture
def demo(settings):
    if not AXE.exists():
        skip_or_fail("needs axe-core in node_modules (make test runs npm ci)")
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("load_demo", stdout=open("/dev/null", "w"))


def pages_for(role: str) -> list[str]:
    from events.models import Event
    from events.play.models import Division

    event = Event.objects.exclude(status="draft").order_by("starts_on").first()
    rules = "/rules/tournament-rules/"
    pages = [
        "/",
        "/events/",
        event.get_absolute_url(),
        "/ratings/",
        "/members/",
        "/rules/",
        rules,
        f"{rules}version/1/",
    ]
    if role == "anonymous":
        return [*pages, "/accounts/login/", "/accounts/signup/"]
    if role == "player":
        return [*pages, "/members/me/", "/members/me/profile/", "/events/my-entries/", "/money/payments/"]
    division = Division.objects.filter(rounds__isnull=False).select_related("event").first()
    base = f"/events/{division.event.slug}/play/"
    return [
        *pages,
        "/events/mine/",
        f"/events/{event.slug}/manage/",
        base,
        f"{base}divisions/",
        f"{base}division/{division.pk}/",
        f"{base}division/{division.pk}/standings/",
        f"{base}division/{division.pk}/cross-table/",
        f"{base}division/{division.pk}/prizes/",
        *money_pages(),
    ]


def money_pages() -> list[str]:
    """The treasurer's pages, an event's money, a payment page with a PayNow code, a receipt."""
    from events.models import Entry, EntryStatus
    from events.services.payments import entry_reference
    from money.models import Payment

    owing = Entry.objects.filter(status=EntryStatus.PENDING_PAYMENT).select_related("event").first()
    receipt = Payment.objects.filter(event__isnull=False).select_related("event").first()  # an entry fee's
    assert owing is not None and receipt is not None, "the demo has an unpaid entry and a receipt"
    return [
        "/money/treasurer/",
        "/money/statements/",
        f"/money/events/{receipt.event.slug}/",
        f"/money/pay/{entry_reference(owing)}/",
        f"/money/receipts/{receipt.number}/",
    ]


@pytest.mark.parametrize(
    "role,email,viewport",
    [
        ("anonymous", None, None),
        ("player", "player@example.org", PHONE),
        ("staff", "staff@example.org", None),
    ],
)
def test_pages_pass_axe(demo, journey, live_server, role, email, viewport):
    trip = journey(f"axe-{role}", viewport=viewport)
    if email:
        log_in(trip.page, live_server.url, email, DEMO_PASSWORD)
    found = {}
    for path in pages_for(role):
        response = trip.page.goto(live_server.url + path)
        assert response.status == 200, f"{path} answered {response.status}"
        problems = violations(trip.page)
        if problems:
            found[path] = problems
            trip.shot(path)
    assert found == {}, json.dumps(found, indent=1)

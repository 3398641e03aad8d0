"""Browser journeys: Playwright driving Debian's chromium against a live server.

Each journey saves a screenshot per step into $E2E_ARTIFACTS/<journey>/ (default artifacts/e2e).
"""

import os
import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import skip_or_fail

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make are still sync.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(os.environ.get("E2E_ARTIFACTS", Path(__file__).resolve().parents[2] / "artifacts" / "e2e"))
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def browser():
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        skip_or_fail(f"needs Chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip_or_fail("needs the playwright package (make test installs it)")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture(scope="session", autouse=True)
def _expect_waits_as_long_as_the_pages():
    """expect(locator) waits 5 s unless told otherwise; the journeys' pages wait 15 s for everything else."""
    try:
        from playwright.sync_api import expect
    except ImportError:
        return  # the browser fixture skips (or fails) with the reason
    expect.set_options(timeout=15000)


class Journey:
    """A browser page plus numbered screenshots of each step."""

    def __init__(self, browser, base_url: str, name: str, viewport=None):
        self.context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900})
        self.page = self.context.new_page()
        self.page.set_default_timeout(15000)
        self.base_url = base_url
        self.folder = ARTIFACTS / name
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.step_no = 0
        self.csp_violations: list[str] = []
        self.server_errors: list[str] = []  # responses of 500 and up, for the failure report
        self.others = []  # other people's pages (new_page)
        self._watch(self.page)

    def _watch(self, page):
        """Collects what the browser refused under the Content-Security-Policy (none is allowed), and the
        server's errors (shown when the journey fails)."""
        page.on(
            "console",
            lambda message: (
                self.csp_violations.append(message.text) if "Content Security Policy" in message.text else None
            ),
        )
        page.on(
            "response",
            lambda response: (
                self.server_errors.append(f"{response.status} {response.url}") if response.status >= 500 else None
            ),
        )

    def describe(self) -> str:
        """Where each of this journey's pages stands: its address, title and the start of its text, and a last
        screenshot. A failed journey prints it, so a failure far away (CI) can be read without the screenshots."""
        lines = [f"journey {self.folder.name}: server errors {self.server_errors or 'none'}"]
        for number, page in enumerate([*self.context.pages, *self.others]):
            try:
                text = " ".join(page.inner_text("body", timeout=2000).split())[:600]
                title = page.title()
                page.screenshot(path=str(self.folder / f"failed-{number}.png"), full_page=True)
            except Exception as error:  # the page may be gone or hung: say so and go on
                text, title = f"(could not be read: {error})", ""
            lines.append(f"  page {number}: {page.url} | {title} | {text}")
        return "\n".join(lines)

    def goto(self, path: str):
        self.page.goto(self.base_url + path)
        return self.page

    def shot(self, label: str, page=None):
        """Saves the next numbered screenshot of this journey's page (or of another person's `page`)."""
        self.step_no += 1
        slug = re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")
        (page or self.page).screenshot(path=str(self.folder / f"{self.step_no:02d}-{slug}.png"), full_page=True)

    def new_page(self, viewport=None):
        """A second person in their own browser context (e.g. an opponent on a phone)."""
        context = self.page.context.browser.new_context(viewport=viewport or PHONE)
        page = context.new_page()
        page.set_default_timeout(15000)
        self._watch(page)
        self.others.append(page)
        return page

    def close(self):
        self.context.close()


@pytest.fixture
def journey(browser, live_server, request):
    made = []

    def start(name: str, viewport=None) -> Journey:
        j = Journey(browser, live_server.url, name, viewport)
        made.append(j)
        return j

    start.made = made  # read by pytest_runtest_makereport when the journey fails
    yield start
    for j in made:
        j.close()
    violations = [v for j in made for v in j.csp_violations]
    assert violations == [], f"the browser refused something under the Content-Security-Policy: {violations}"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed journey's report says where each of its pages stood (address, title, text, server errors)."""
    report = yield
    start = item.funcargs.get("journey") if hasattr(item, "funcargs") else None
    if report.when == "call" and report.failed and start is not None:
        report.sections.append(("where the journey's pages stood", "\n".join(j.describe() for j in start.made)))
    return report


def pytest_sessionfinish(session, exitstatus):
    if ARTIFACTS.exists() and any(ARTIFACTS.iterdir()):
        print(f"\nBrowser journey screenshots: {ARTIFACTS}")


PASSWORD = "tiles-and-racks-77"


def log_in(page, base_url: str, email: str, password: str = PASSWORD, next_path: str = ""):
    """Logs in through the site's own log-in form (optionally going on to `next_path`)."""
    page.goto(base_url + "/accounts/login/" + (f"?next={next_path}" if next_path else ""))
    page.fill("input[name=login]", email)
    page.fill("input[name=password]", password)
    page.get_by_role("button", name="Sign In").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    return page


@pytest.fixture
def member(settings):
    """Makes a member who can log in: an account with a verified address, linked to a player record.

    member("Full Name", email=..., organiser=True, **player_fields) -> (user, player)
    """
    from allauth.account.models import EmailAddress
    from django.contrib.auth.models import Group

    from clubsite.kit.roles import ORGANISERS_GROUP
    from players.models import Player, User
    from players.services import allocate_member_number

    # Accounts made for a journey need no slow password hashing.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

    def make(full_name: str, email: str | None = None, *, organiser: bool = False, player: bool = True, **fields):
        email = email or full_name.lower().replace(" ", ".") + "@example.org"
        first, _, last = full_name.partition(" ")
        user = User.objects.create_user(
            username=email, email=email, password=PASSWORD, first_name=first, last_name=last
        )
        EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
        if organiser:
            group, _ = Group.objects.get_or_create(name=ORGANISERS_GROUP)
            user.groups.add(group)
        record = None
        if player:
            record = Player.objects.create(
                user=user, full_name=full_name, email=email, member_number=allocate_member_number(), **fields
            )
        return user, record

    return make


# The seed 004 entry form: two categories, S$3 standard and S$2 concession fees, top-10 prizes.
SECONDARY = "Category A – Secondary School Student"
PRIMARY = "Category B – Primary School Student"
VOUCHERS = {SECONDARY: (100, 80, 60, 40, 20), PRIMARY: (80, 60, 40, 20, 10)}


def fill_seed_category(page, name: str, level: str) -> None:
    """From the organiser's manage page: fill in one seed 004 category (saving is left to the caller)."""
    page.get_by_role("link", name="Add category").click()
    page.fill("#id_name", name)
    page.fill("#id_quota", "40")
    page.select_option("#id_school_level", level)
    page.fill("#id_fees-0-name", "Standard")
    page.fill("#id_fees-0-amount", "3.00")
    page.fill("#id_fees-0-note", "incl. GST")
    page.fill("#id_fees-1-name", "Passion Card holder")
    page.fill("#id_fees-1-amount", "2.00")
    page.fill("#id_fees-1-note", "incl. GST")
    page.check("#id_fees-1-is_concession")
    page.fill("#id_fees-1-proof_label", "Passion Card number")
    for i, amount in enumerate(VOUCHERS[name]):
        page.fill(f"#id_prizes-{i}-rank_from", str(i + 1))
        page.fill(f"#id_prizes-{i}-rank_to", str(i + 1))
        page.fill(f"#id_prizes-{i}-description", f"Shopping voucher S${amount} + trophy")
        page.fill(f"#id_prizes-{i}-amount", str(amount))
    page.fill("#id_prizes-5-rank_from", "6")
    page.fill("#id_prizes-5-rank_to", "10")
    page.fill("#id_prizes-5-description", "Trophy")
    page.select_option("#id_prizes-6-kind", "lucky_draw")
    page.fill("#id_prizes-6-description", "Attractive lucky draw prizes for non-prize winners")

"""Club life in the site's world (tests/site_world.py): the director of the event under way is also the club director
of Walker Club, which meets weekly from today; the player said they are coming to tonight's night and was checked
in, with the session fee still to pay."""

from datetime import time, timedelta
from decimal import Decimal

from django.utils import timezone

from clubs import services
from clubs.models import OfficerRole
from tests.factories import PlayerFactory


def build(objects: dict, users: dict) -> dict:
    club, staff, director = objects["club"], users["staff"], users["director"]
    director_player = PlayerFactory(user=director, email=director.email, club=club, full_name="Dan Director")
    services.appoint_officer(staff, club, director_player, OfficerRole.DIRECTOR)
    services.update_page(director, club, venue="Walker Hall", address="1 Walker Road", contact_email="c@example.org")
    today = timezone.localdate()
    series = services.plan_series(
        staff,
        club,
        frequency="weekly",
        first_on=today,
        last_on=today + timedelta(weeks=3),
        exceptions=[(today + timedelta(weeks=2), "Public holiday")],
        starts_at=time(19, 0),
        member_fee=Decimal("5.00"),
        guest_fee=Decimal("8.00"),
        venue="Walker Hall",
    )
    night = series.nights.order_by("on").first()
    services.answer(objects["me"].user, night, coming=True, guests=1)
    attendance = services.check_in(director, night, objects["me"])
    return {"night_series": series, "club_night": night, "attendance": attendance}


def url_kwargs(o: dict) -> dict:
    """The path parameters of the club pages."""
    slug, night = o["club"].slug, o["club_night"]
    named = {"clubs:detail": {}, "clubs:edit": {}, "clubs:manage": {}, "clubs:takings": {}}
    named = {name: {"slug": slug} for name in named}
    named["clubs:night_off"] = {"slug": slug, "pk": o["night_series"].pk}
    for name in ("night", "rsvp", "door", "check_in", "guest"):
        named[f"clubs:{name}"] = {"slug": slug, "pk": night.pk}
    named["clubs:fee"] = {"slug": slug, "pk": night.pk, "attendance": o["attendance"].pk}
    return named

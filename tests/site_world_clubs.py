"""Club life in the site's world (tests/site_world.py): the director of the event under way is also the club director
of Walker Club, which meets weekly from today; the player said they are coming to tonight's night and was checked
in, with the session fee still to pay. The rival came too: they played a table and a game the club director entered
(so the club has its play rules and rating list), and the rival's game against the player waits for the player to
confirm it."""

from datetime import time, timedelta
from decimal import Decimal

from django.utils import timezone

from clubs import services
from clubs.models import OfficerRole
from clubs.services import play
from tests.factories import PlayerFactory


def build(objects: dict, users: dict) -> dict:
    club, staff, director = objects["club"], users["staff"], users["director"]
    director_player = PlayerFactory(user=director, email=director.email, club=club, full_name="Dan Director")
    office = services.appoint_officer(staff, club, director_player, OfficerRole.DIRECTOR)
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
    # Play at the night: the rival checked in too, a table of the two, and the rival's game waiting for the player.
    services.check_in(director, night, objects["rival"])
    me, rival = objects["me"], objects["rival"]
    table = play.enter_table(director, night, [play.TableRow(me, "A", 300, 0), play.TableRow(rival, "B", 290, 5)])
    play.save_rules(director, club, win_points=3)
    play.submit_game(director, night, me, rival, 400, 390)  # confirmed as entered: both are on the club rating list
    game = play.submit_game(rival.user, night, rival, me, 380, 350)
    return {
        "night_series": series,
        "club_night": night,
        "attendance": attendance,
        "club_table": table,
        "club_game": game,
        "club_office": office,
    }


def url_kwargs(o: dict) -> dict:
    """The path parameters of the club pages."""
    slug, night = o["club"].slug, o["club_night"]
    named = {"clubs:detail": {}, "clubs:edit": {}, "clubs:manage": {}, "clubs:takings": {}, "clubs:officers": {}}
    named = {name: {"slug": slug} for name in named}
    named["clubs:night_off"] = {"slug": slug, "pk": o["night_series"].pk}
    for name in ("night", "rsvp", "door", "check_in", "guest"):
        named[f"clubs:{name}"] = {"slug": slug, "pk": night.pk}
    named["clubs:officer_remove"] = {"slug": slug, "pk": o["club_office"].pk}
    named["clubs:fee"] = {"slug": slug, "pk": night.pk, "attendance": o["attendance"].pk}
    for name in ("night_play", "table_new", "table_sheet"):
        named[f"clubs:{name}"] = {"slug": slug, "pk": night.pk}
    for name in ("game_confirm", "game_dispute", "game_remove"):
        named[f"clubs:{name}"] = {"slug": slug, "pk": o["club_game"].pk}
    named["clubs:table_remove"] = {"slug": slug, "pk": o["club_table"].pk}
    for name in ("ladder", "play_rules", "tournament_new"):
        named[f"clubs:{name}"] = {"slug": slug}
    return named

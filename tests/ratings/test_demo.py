"""The demo data shows a rating list, a player's chart and an event's rating report."""

import io

import pytest
from django.apps import apps
from django.urls import reverse

from players import demo
from players.visibility import visible_players
from ratings.models import PlayerRating, RatingChange, RatingList, RatingSnapshot

pytestmark = pytest.mark.django_db


def test_demo_ratings(client):
    out = io.StringIO()
    demo.load(out)
    apps.get_app_config("ratings").load_demo(out)
    apps.get_app_config("ratings").load_demo(out)  # a second load changes nothing

    rating_list = RatingList.objects.get(name="SA Ratings (CSW)")
    assert rating_list.rated_events.count() == 3
    assert RatingSnapshot.objects.filter(rating_list=rating_list).count() == 1

    page = client.get(reverse("ratings:list"))
    rows = list(page.context["page"])
    assert len(rows) >= 30 and rows[0].rank == 1

    # The best-rated player whose pages are public (pupils without a guardian's opt-in are not).
    listed = visible_players(None).values("pk")
    top = PlayerRating.objects.filter(rating_list=rating_list, player__in=listed).order_by("-rating").first()
    chart = client.get(reverse("ratings:player_chart", args=[rating_list.slug, top.player.member_number]))
    assert chart["Content-Type"].startswith("image/svg+xml") and b"<svg" in chart.content

    last = RatingChange.objects.filter(rating_list=rating_list).order_by("-event_date").first().event
    report = client.get(reverse("ratings:event_report", args=[last.slug]))
    assert len(report.context["divisions"]) == 2
    assert sum(len(d["rows"]) for d in report.context["divisions"]) == 34

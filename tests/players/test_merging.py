"""Staff make two records of one person one (players.merging): what each holds is shown, everything moves to the
kept record, the rating history follows and is re-rated, the merge is logged, and the old number leads on."""

from datetime import date

import pytest
from django.urls import reverse

from clubsite.kit.errors import NotAllowed
from events.models import Entry
from events.play.models import Game
from players import merging
from players.models import Player, PlayerMerge
from ratings import services as ratings
from ratings.models import PlayerRating, RatingChange, RatingRun
from tests.events.factories import EntryFactory, open_event
from tests.factories import MembershipFactory, PlayerFactory, UserFactory
from tests.ratings.factories import RatedEventFactory, RatingListFactory, days_ago, play, seed

pytestmark = pytest.mark.django_db
REASON = "The same pupil: same date of birth and school, entered by two teachers."


@pytest.fixture
def staff():
    return UserFactory(is_staff=True)


def test_the_rating_history_follows_the_person_and_the_list_is_re_rated_from_the_old_records_first_event(
    staff, on_commit
):
    rating_list = RatingListFactory()
    keep = PlayerFactory(full_name="Tan Ah Kow", date_of_birth=date(2014, 3, 25), email="")
    drop = PlayerFactory(full_name="Ah Kow Tan", email="tak@example.org")
    x, y = PlayerFactory(), PlayerFactory()
    for player in (keep, x, y):
        seed(rating_list, player, 1500)
    first = RatedEventFactory(rating_list=rating_list, starts_on=days_ago(60), ends_on=days_ago(60))
    second = RatedEventFactory(rating_list=rating_list, starts_on=days_ago(30), ends_on=days_ago(30))
    play(first, [(1, keep, x, 420, 350)])
    play(second, [(1, drop, y, 400, 380)])
    ratings.rate_event(first)
    ratings.rate_event(second)
    after_first = RatingChange.objects.get(player=keep, division__event=first).post
    assert RatingChange.objects.get(player=drop).is_newcomer  # the split: a newcomer again in the second event
    MembershipFactory(player=drop)
    number = drop.member_number

    with on_commit(execute=True):
        log = merging.merge_players(staff, keep, drop, REASON)

    assert not Player.objects.filter(pk=drop.pk).exists()
    assert Game.objects.filter(player_a=keep).count() == 2 and keep.memberships.count() == 1
    # The second event is re-rated with the person's history: they come to it with the rating the first gave them.
    change = RatingChange.objects.get(player=keep, division__event=second)
    assert change.pre == after_first and not change.is_newcomer
    run = RatingRun.objects.order_by("-pk").first()
    assert run.reason == f"Re-rated from {days_ago(30):%d %b %Y}"
    # One standing on the list: the seed's 100 games and one game in each event.
    assert PlayerRating.objects.get(player=keep, rating_list=rating_list).games == 102
    # Logged with its reason and what moved; the old record's facts fill the kept one's gaps.
    assert (log.kept, log.old_member_number, log.old_full_name, log.reason) == (keep, number, "Ah Kow Tan", REASON)
    assert log.moved["games"] == 1 and log.moved["memberships"] == 1
    keep.refresh_from_db()
    assert keep.email == "tak@example.org" and keep.date_of_birth == date(2014, 3, 25)


def test_the_old_member_number_leads_to_the_kept_records_page(client, staff):
    keep, drop = PlayerFactory(listed_in_directory=True), PlayerFactory()
    number = drop.member_number
    merging.merge_players(staff, keep, drop, REASON)
    response = client.get(reverse("players:detail", args=[number]))
    assert response.status_code == 301 and response.url == keep.get_absolute_url()
    assert client.get(reverse("players:detail", args=[999999])).status_code == 404


def test_what_cannot_be_one_persons_is_refused_and_nothing_moves(staff):
    event, category, (fee,) = open_event(quota=10)
    keep, drop = PlayerFactory(), PlayerFactory()
    EntryFactory(event=event, category=category, player=keep, fee=fee)
    EntryFactory(event=event, category=category, player=drop, fee=fee)
    with pytest.raises(merging.MergeError) as refusal:
        merging.merge_players(staff, keep, drop, REASON)
    assert refusal.value.message == (
        f"Members {keep.member_number} and {drop.member_number} cannot be one person as they stand: both have entry "
        f"for event {event}."
    )
    assert Entry.objects.filter(player=drop).count() == 1 and Player.objects.filter(pk=drop.pk).exists()
    assert not PlayerMerge.objects.exists()


def test_only_staff_merge_with_a_reason_and_never_two_accounts(staff):
    keep, drop = PlayerFactory(user=UserFactory()), PlayerFactory(user=UserFactory())
    with pytest.raises(NotAllowed):
        merging.merge_players(UserFactory(), keep, drop, REASON)
    with pytest.raises(merging.MergeError, match="Say why the two records are one person"):
        merging.merge_players(staff, keep, drop, "  ")
    with pytest.raises(merging.MergeError, match="Both records have an account"):
        merging.merge_players(staff, keep, drop, REASON)
    with pytest.raises(merging.MergeError, match="reason"):
        merging.merge_players(staff, keep, PlayerFactory(), "x" * 5000)
    # An account on the old record only passes to the kept one.
    lone = PlayerFactory()
    account = drop.user
    merging.merge_players(staff, lone, drop, REASON)
    lone.refresh_from_db()
    assert lone.user == account


def test_the_admin_action_leads_to_the_merge_page_showing_what_each_holds(client, staff):
    staff.is_superuser = True
    staff.save()
    keep, drop = PlayerFactory(full_name="Tan Ah Kow"), PlayerFactory(full_name="Ah Kow Tan")
    MembershipFactory(player=drop)
    client.force_login(staff)
    changelist = reverse("admin:players_player_changelist")
    response = client.post(changelist, {"action": "merge_two", "_selected_action": [keep.pk, drop.pk]})
    url = f"{reverse('players:merge')}?a={keep.member_number}&b={drop.member_number}"
    assert response.status_code == 302 and response.url == url
    html = client.get(url).content.decode()
    assert f'id="record-{drop.member_number}"' in html and "<li>Memberships: 1</li>" in html
    done = client.post(url, {"keep": str(keep.member_number), "reason": REASON})
    assert done.status_code == 302 and done.url == keep.get_absolute_url()
    assert keep.memberships.count() == 1 and not Player.objects.filter(pk=drop.pk).exists()
    assert client.get(f"{reverse('players:merge')}?a=1{'9' * 40}&b=x").status_code == 404
    client.force_login(UserFactory())
    assert client.get(url).status_code in (403, 404)

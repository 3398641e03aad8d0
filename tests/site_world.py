"""A small site with one of everything, for the checks that walk every URL: the hostile input walker
(tests/test_hostile_input.py) and the authorization matrix (tests/test_authorization_matrix.py).

`build()` makes it through the services (as people would) and answers the people by role and the values of every
URL's path parameters. The roles:

- anonymous: nobody signed in;
- player: a member with an account, entered in the open event (unpaid, with a quotation asked for) and in the
  event under way (paid, with a receipt and a credit note), seated in its division, with a game of a published
  round still to report;
- teacher: an account that entered a group of two students (a group entry of their own, no member record);
- organiser: in the Organisers group, owns both events;
- director: directs the event under way (named by it; neither its owner nor an organiser);
- staff: association staff (is_staff and superuser, as the demo's staff account): everything, the admin included.

There is no treasurer role: association staff keep the books (money.views.treasurer answers staff only).

Every request of the checks runs in a savepoint rolled back after it (`isolated`), so what one request changes
(a withdrawn entry, a published round) never changes what the next one sees.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

from django.contrib.auth.models import Group
from django.core import signing
from django.db import transaction
from django.utils import timezone

from clubsite.kit.roles import ORGANISERS_GROUP
from events import services as event_services
from events.models import Category, Entry, EntryStatus, EventStatus, Fee, GroupEntry, PrizeKind
from events.play import services as play
from events.play.models import Division, DivisionPlayer, RoundStatus
from events.services.discounts import save_discount_code
from events.services.guestlink import make_guest_token
from events.services.payments import entry_reference
from events.services.withdrawlink import make_token
from money.models import PaymentSettings, Refund
from money.services import invoices, ledger
from money.services import statements as statement_service
from players import services as player_services
from players.models import Membership, MembershipOffer, MembershipType
from ratings import services as rating_services
from ratings.models import RatingRun
from rulebooks import services as rule_book_services
from rulebooks.models import RuleBook
from tests import site_world_clubs
from tests.events.factories import EventFactory
from tests.factories import AssociationFactory, ClubFactory, PlayerFactory, UserFactory, confirmed
from tests.ratings.factories import PlayerRatingFactory, RatingListFactory
from wordjudge import services as judge_services

ROLES = ("anonymous", "player", "teacher", "organiser", "director", "staff")


@dataclass
class World:
    users: dict  # role -> User (None for anonymous)
    objects: dict = field(default_factory=dict)  # what path parameters name, by what they are


@contextmanager
def isolated(client=None):
    """One request's changes, rolled back after it; the client's cookies (its session) as they were."""
    cookies = client.cookies.__class__(client.cookies) if client is not None else None
    with transaction.atomic():
        yield
        transaction.set_rollback(True)
    if client is not None:
        client.cookies = cookies


def _member(club, **fields):
    user = confirmed(UserFactory())
    player = PlayerFactory(user=user, email=user.email, club=club, listed_in_directory=True, **fields)
    Membership.objects.create(
        player=player,
        association=club.association,
        starts_on=timezone.localdate() - timedelta(days=300),
        expires_on=timezone.localdate() + timedelta(days=65),
        fee=20,
        type=MembershipType.ORDINARY,
    )
    return player


def _one_of_each(o: dict) -> None:
    """The records only play, ratings, the judge and a merge make along the way, made directly: a check-in, a play-up
    request, a prize decision, a lucky draw, a game record, a rated event and its rating change, a merge's log, a
    lexicon and a ruling, and staff's API token."""
    from rest_framework.authtoken.models import Token

    from events.models import PlayUpRequest
    from events.play.models import CheckIn, GcgRecord, LuckyDraw, PrizeDecision
    from ratings.models import RatedEvent, RatingChange
    from wordjudge.models import Judgement, JudgeSession, Lexicon

    now = timezone.now()
    division, seat = o["division"], o["division"].seats.order_by("number").first()
    Token.objects.create(user=o["staff"])
    PlayUpRequest.objects.create(entry=o["rival_playing_entry"])
    CheckIn.objects.create(entry=o["rival_playing_entry"], checked_in_at=now, checked_in_by=o["director"])
    PrizeDecision.objects.create(division=division, prize="1st place", seat=seat, reason="walk", decided_by=o["staff"])
    LuckyDraw.objects.create(division=division, seed=1, winners_wanted=1, candidates=[seat.player_id])
    GcgRecord.objects.create(game=o["other_game"], text="#player1 A A\n#player2 B B\n", filename="walk.gcg")
    RatedEvent.objects.create(rating_list=o["rating_list"], event=o["playing"], starts_on=o["today"], rated_at=now)
    RatingChange.objects.create(
        rating_list=o["rating_list"],
        division=division,
        player=seat.player,
        event_date=o["today"],
        pre=1500,
        post=1510,
        career_games=100,
        games=1,
        actual=1,
    )
    from players.models import PlayerMerge

    PlayerMerge.objects.create(
        kept=seat.player, old_member_number=999_001, old_full_name="Merged Record", reason="walk", merged_by=o["staff"]
    )
    Lexicon.objects.create(name="WALK", words=b"CAT\nDOG", word_count=2)
    session = JudgeSession.objects.get(token=o["judge"].token)
    Judgement.objects.create(
        session=session,
        event=o["playing"],
        words="CAT",
        acceptable=True,
        lexicon_name="WALK",
        lexicon_version=1,
        judged_at=now,
    )


def build() -> World:
    today = timezone.localdate()
    association = AssociationFactory()
    PaymentSettings.objects.create(association=association, receipt_prefix="SA", address="1 Test Road")
    club = ClubFactory(association=association, name="Walker Club", slug="walker-club")
    organisers, _ = Group.objects.get_or_create(name=ORGANISERS_GROUP)

    staff = confirmed(UserFactory(is_staff=True, is_superuser=True, first_name="Sam", last_name="Staff"))
    organiser = confirmed(UserFactory(first_name="Olga", last_name="Organiser"))
    organiser.groups.add(organisers)
    director = confirmed(UserFactory(first_name="Dan", last_name="Director"))
    teacher = confirmed(UserFactory(first_name="Tess", last_name="Teacher"))
    me = _member(club, full_name="Priya Player", date_of_birth=date(1990, 5, 1))
    rival = _member(club, full_name="Ravi Rival", date_of_birth=date(1991, 6, 1))
    others = [_member(club, full_name=f"Other Member{i}") for i in range(4)]

    # The association's rule book in two versions; the open event follows the second.
    rule_book = rule_book_services.save_book(
        staff, RuleBook(association=association, title="Walker Rules", slug="walker-rules")
    )
    rule_book_services.publish_version(staff, rule_book, text="1. Play fair.")
    rules = rule_book_services.publish_version(
        staff, rule_book, text="1. Play fair.\n2. Keep score.", changes="Rule 2: keep score."
    )

    # An event open for entries: categories with fees and prizes, entries of every kind.
    open_event = EventFactory(
        owner=organiser,
        association=association,
        club=club,
        title="Walker Open",
        slug="walker-open",
        rules_agreement="Play fair.",
        rule_book_version=rules,
        rule_amendments="Rule 2 does not apply to the youngest.",
        max_group_size=5,
        payment_methods=["in_person", "cheque", "paynow"],
        refund_policy="Refunds until the closing date.",
    )
    category = event_services.save_category(
        organiser,
        open_event,
        name="Open",
        quota=20,
        fees=[
            {"name": "Standard", "amount": Decimal("10.00")},
            {"name": "Student", "amount": Decimal("5.00"), "is_concession": True, "proof_label": "student card"},
        ],
        prizes=[
            {"kind": PrizeKind.PLACE, "rank_from": 1, "rank_to": 1, "description": "Trophy", "amount": 50},
            {"kind": PrizeKind.HIGH_GAME, "description": "Voucher", "amount": 10},
        ],
    )
    second = event_services.save_category(
        organiser, open_event, name="Novices", fees=[{"name": "Free", "amount": Decimal("0")}]
    )
    standard = category.fees.get(is_concession=False)
    # A discount code the organiser gave out (not yet used: its page may remove it).
    discount_code = save_discount_code(
        organiser, open_event, {"code": "WALKER-FRIENDS", "kind": "amount", "value": "2", "max_uses": 10}
    )
    # The organiser's own question, optional (the API's entering door is asked without answers), answered by the
    # player.
    question = event_services.save_question(
        organiser, open_event, kind="choice", label="T-shirt size", choices=["S", "M", "L"]
    )
    my_open_entry = event_services.register_entry(
        me.user, open_event, category=category, fee=standard, accept_rules=True, answers={question.pk: "M"}
    )
    quotation = invoices.issue(
        me.user,
        entry_reference(my_open_entry),
        document="quotation",
        billing_name="Me",
        billing_address="1 Home Road",
        po_number="PO-1",
    )
    rival_entry = event_services.register_entry(
        organiser,
        open_event,
        category=category,
        fee=standard,
        accept_rules=True,
        player=rival,
        date_of_birth=rival.date_of_birth,
    )
    group = event_services.register_group(
        teacher,
        open_event,
        contact={
            "role": GroupEntry.Role.TEACHER,
            "contact_name": "Tess Teacher",
            "school": "Walker Primary",
            "address": "1 School Road",
            "phone": "6000 0000",
            "email": teacher.email,
        },
        students=[
            {
                "full_name": f"Student Number{i}",
                "date_of_birth": date(today.year - 10, 1, 1 + i),
                "category": category,
                "fee": standard,
            }
            for i in range(2)
        ],
        accept_rules=True,
    )
    student_entry = group.entries.order_by("pk").first()
    # Entered without an account, confirmed from its emailed link.
    open_event.allows_guest_entries = True
    open_event.save(update_fields=["allows_guest_entries"])
    guest = event_services.submit_guest_entry(
        open_event,
        role="parent",
        contact_name="Gina Guest",
        email="gina.guest@example.org",
        full_name="Gus Guest",
        date_of_birth=date(today.year - 11, 2, 2),
        category=category,
        fee=standard,
        accept_rules=True,
    )
    event_services.confirm_guest_entry(make_guest_token(guest))

    # An event under way: a division, a published round with games (one reported), a draft round after it.
    playing = EventFactory(
        owner=organiser,
        association=association,
        club=club,
        title="Walker Weekender",
        slug="walker-weekender",
        status=EventStatus.IN_PROGRESS,
        starts_on=today,
        ends_on=today + timedelta(days=1),
        registration_opens_at=timezone.now() - timedelta(days=20),
        registration_closes_at=timezone.now() - timedelta(days=1),
        number_of_games=3,
        rated=False,
        lexicon="CSW24",
    )
    playing.directors.add(director)
    playing_category = Category.objects.create(event=playing, name="Main")
    playing_fee = Fee.objects.create(category=playing_category, name="Standard", amount=Decimal("20.00"))
    division = Division.objects.create(event=playing, name="A", category=playing_category)
    seated = [me, rival, *others]
    playing_entries = {}
    for number, player in enumerate(seated, start=1):
        playing_entries[player.pk] = Entry.objects.create(
            event=playing,
            category=playing_category,
            fee=playing_fee,
            player=player,
            status=EntryStatus.PENDING_PAYMENT,
            amount_due=playing_fee.amount,
            accepted_at=timezone.now(),
            division=division,
        )
        DivisionPlayer.objects.create(division=division, player=player, number=number, rating=1800 - number * 10)
    my_playing_entry = playing_entries[me.pk]
    event_services.record_payment(organiser, my_playing_entry, amount=Decimal("20.00"), method="in_person")
    payment = my_playing_entry.payments.get().money_payment
    ledger.refund(organiser, payment, amount=Decimal("5.00"), reason="Paid too much")
    credit = Refund.objects.get(payment=payment)
    for player in seated[1:]:
        Entry.objects.filter(pk=playing_entries[player.pk].pk).update(status=EntryStatus.CONFIRMED)

    first = play.pair_round(director, division, "random", seed=1)
    play.publish_round(director, first)
    games = list(first.games.exclude(player_b=None).order_by("board"))
    my_game = next(g for g in games if me.pk in (g.player_a_id, g.player_b_id))
    other_game = next(g for g in games if me.pk not in (g.player_a_id, g.player_b_id))
    play.submit_result(director, other_game, 420, 380)
    draft = play.pair_round(director, division, "random", seed=2)
    assert draft.status == RoundStatus.DRAFT
    judge = judge_services.open_judge(director, playing)

    # Ratings: a list with the members on it, a snapshot, a run, an import waiting for review.
    rating_list = RatingListFactory(association=association, name="Walker Ratings", slug="walker-ratings")
    for i, player in enumerate(seated):
        PlayerRatingFactory(rating_list=rating_list, player=player, rating=1600 - 20 * i)
    snapshot = rating_services.take_snapshot(rating_list, today.replace(day=1))
    run = RatingRun.objects.create(rating_list=rating_list, from_date=today - timedelta(days=30), reason="walk")
    rating_import = rating_services.prepare_rating_import(
        staff,
        rating_list,
        "name\trating\trank\texpires\tgames\n"
        "Priya Player\t1650\t1\t2030-01-01\t50\nNew Person\t1200\t2\t2030-01-01\t3\n",
        filename="ratings.txt",
        as_of=today - timedelta(days=1),
    )

    # Money: a bank statement to review; a member's renewal; a claim of a record by the teacher.
    statement = statement_service.upload(
        staff,
        association,
        "statement.csv",
        f"date,amount,description\n{today.isoformat()},10.00,PAYNOW {entry_reference(my_open_entry)}\n",
    )
    renewal = player_services.request_renewal(me.user, me)
    offer = MembershipOffer.objects.create(association=association, type=MembershipType.ORDINARY, fee=20)
    unclaimed = PlayerFactory(full_name="Unclaimed Record", email=teacher.email)
    claim = player_services.request_claim(teacher, unclaimed.member_number, "It is me")
    claim_token = signing.dumps({"claim": claim.pk}, salt=player_services.CLAIM_SALT)

    users = {
        "anonymous": None,
        "player": me.user,
        "teacher": teacher,
        "organiser": organiser,
        "director": director,
        "staff": staff,
    }
    objects = {
        "association": association,
        "club": club,
        "me": me,
        "rival": rival,
        "open_event": open_event,
        "rule_book": rule_book,
        "rules": rules,
        "category": category,
        "standard_fee": standard,
        "discount_code": discount_code,
        "second_category": second,
        "question": question,
        "my_open_entry": my_open_entry,
        "quotation": quotation,
        "rival_entry": rival_entry,
        "group": group,
        "student_entry": student_entry,
        "withdraw_token": make_token(rival_entry),
        "guest_token": make_guest_token(guest),
        "playing": playing,
        "division": division,
        "first_round": first,
        "draft_round": draft,
        "my_game": my_game,
        "other_game": other_game,
        "my_playing_entry": my_playing_entry,
        "rival_playing_entry": playing_entries[rival.pk],
        "payment": payment,
        "credit": credit,
        "judge_token": judge.token,
        "rating_list": rating_list,
        "snapshot": snapshot,
        "run": run,
        "rating_import": rating_import,
        "statement": statement,
        "renewal": renewal,
        "offer": offer,
        "claim_token": claim_token,
    }
    # One record of each kind the admin lists, so each of its pages has one to show.
    _one_of_each({**objects, "staff": staff, "director": director, "today": today, "judge": judge})
    objects.update(site_world_clubs.build(objects, users))
    return World(users=users, objects=objects)


# --- the URLs -----------------------------------------------------------------------------------------------------


def url_patterns():
    """(name, route, pattern) for every URL the site serves, admin and API included. An unnamed pattern (the admin's
    old object addresses) is named by its route."""
    from django.urls import URLPattern, URLResolver, get_resolver

    def walk(patterns, prefix="", namespace=""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern), inner)
            elif isinstance(pattern, URLPattern):
                route = prefix + str(pattern.pattern)
                yield (f"{namespace}{pattern.name}" if pattern.name else route), route, pattern

    return list(walk(get_resolver().url_patterns))


def path_values(world: World) -> dict[str, object]:
    """The value each path parameter takes, by parameter name: the objects of the world that the pages are about."""
    o = world.objects
    return {
        "member_number": o["me"].member_number,
        "opponent_number": o["rival"].member_number,
        "token": o["withdraw_token"],
        "key": o["playing"].slug,
        "uidb36": "1",
        "reference": entry_reference(o["my_open_entry"]),
        "number": o["payment"].number,
        "taken_on": o["snapshot"].taken_on.isoformat(),
        "kind": "pairings",
        "action": "close",
        "game_pk": o["my_game"].pk,
        "entry_pk": o["my_playing_entry"].pk,
        "app_label": "events",
    }


def _by_name(world: World) -> dict[str, dict]:
    """Path parameters that depend on the page: which event, entry, list or document it is about."""
    o = world.objects
    open_slug, playing_slug = o["open_event"].slug, o["playing"].slug
    division = o["division"].pk
    entries = {"pk": o["my_open_entry"].pk}
    play = {"slug": playing_slug, "pk": division}
    kwargs = {
        "help": {"slug": "pairing-and-ratings"},
        "players:renewal_paid": {"pk": o["renewal"].pk},
        "players:join_approve": {"pk": o["renewal"].pk},
        "players:claim_confirm": {"token": o["claim_token"]},
        "account_confirm_email": {"key": "not-a-key"},
        "account_reset_password_from_key": {"uidb36": "1", "key": "not-a-key"},
        "events:replace_student": {"pk": o["student_entry"].pk},
        "rulebooks:book": {"slug": o["rule_book"].slug},
        "rulebooks:version": {"slug": o["rule_book"].slug, "version": o["rules"].number},
        "rulebooks:publish": {"slug": o["rule_book"].slug},
        "rulebooks:club_new": {"club_slug": o["club"].slug},
        "events:record_payment": {"pk": o["rival_entry"].pk},
        "events:move_entry": {"pk": o["rival_entry"].pk},
        "events:cancel_entry": {"pk": o["rival_entry"].pk},
        "events:reinstate_entry": {"pk": o["rival_entry"].pk},
        "events:free_place": {"pk": o["rival_entry"].pk},
        "events:discount_code_edit": {"slug": open_slug, "pk": o["discount_code"].pk},
        "events:discount_code_delete": {"slug": open_slug, "pk": o["discount_code"].pk},
        "events:group_entry": {"pk": o["group"].pk},
        "events:category_edit": {"slug": open_slug, "pk": o["category"].pk},
        "events:category_delete": {"slug": open_slug, "pk": o["second_category"].pk},
        "events:question_edit": {"slug": open_slug, "pk": o["question"].pk},
        "events:question_delete": {"slug": open_slug, "pk": o["question"].pk},
        "events:entry_answers": entries,
        "events:play_round": {**play, "number": o["first_round"].number},
        "events:play_swap": {**play, "number": o["draft_round"].number},
        "events:play_publish": {**play, "number": o["draft_round"].number},
        "events:play_delete_draft": {**play, "number": o["draft_round"].number},
        "events:play_fast_entry": {**play, "number": o["first_round"].number},
        "events:play_scorecard": {**play, "number": 1},
        "events:play_withdraw": {**play, "number": 2},
        "events:play_print": {**play, "number": o["first_round"].number, "kind": "scorecards"},
        "events:play_wall": {**play, "kind": "pairings"},
        "ratings:import_review": {"pk": o["rating_import"].pk},
        "ratings:run": {"pk": o["run"].pk},
        "ratings:run_progress": {"pk": o["run"].pk},
        "ratings:event_report": {"slug": playing_slug},
        "ratings:event_rate": {"slug": playing_slug},
        "wordjudge:tablet": {"token": o["judge_token"]},
        "money:credit_note": {"number": o["credit"].number},
        "money:credit_note_pdf": {"number": o["credit"].number},
        "money:invoice": {"number": o["quotation"].number},
        "money:invoice_pdf": {"number": o["quotation"].number},
    }
    for name in ("accept_offer", "withdraw", "leave_waitlist"):
        kwargs[f"events:{name}"] = entries
    for name in ("guest_entry", "guest_confirm", "guest_withdraw", "guest_change", "guest_pay"):
        kwargs[f"events:{name}"] = {"token": o["guest_token"]}
    for name in ("statement", "statement-matching", "statement-match-again", "statement-assign",
                 "statement-confirm", "statement-discard"):  # fmt: skip
        kwargs[f"money:{name}"] = {"pk": o["statement"].pk}
    return kwargs | site_world_clubs.url_kwargs(o)


def route_parameters(route: str) -> list[str]:
    import re

    return re.findall(r"<(?:\w+:)?(\w+)>", route) + re.findall(r"\(\?P<(\w+)>", route)


def url_kwargs(world: World, name: str, route: str) -> dict | None:
    """The path parameters of a URL pattern, from the world; None when the world has nothing it could name."""
    names = route_parameters(route)
    known = _by_name(world).get(name)
    if known is not None:
        return known
    if not names:
        return {}
    o = world.objects
    values = path_values(world)
    kwargs = {}
    for param in names:
        if param == "slug":
            if name.startswith(
                ("ratings:list", "ratings:snapshot", "ratings:player", "ratings:rerate", "ratings:import")
            ):
                kwargs[param] = o["rating_list"].slug
            elif name.startswith(("events:play_", "wordjudge:")):
                kwargs[param] = o["playing"].slug
            else:
                kwargs[param] = o["open_event"].slug
        elif param == "pk" and name.startswith("events:play_"):
            kwargs[param] = o["division"].pk
        elif param in values:
            kwargs[param] = values[param]
        else:
            return None
    return kwargs


def _api_kwargs(world: World) -> dict[str, dict]:
    o = world.objects
    return {
        "player-detail": {"member_number": o["me"].member_number},
        "club-detail": {"slug": o["club"].slug},
        "my-renewal-detail": {"pk": o["renewal"].pk},
        "membership-type-detail": {"pk": o["offer"].pk},
        "event-detail": {"slug": o["open_event"].slug},
        "event-copy": {"slug": o["open_event"].slug},
        "rating-list-detail": {"slug": o["rating_list"].slug},
        "rating-list-history": {"slug": o["rating_list"].slug, "member_number": o["me"].member_number},
        "rating-report-detail": {"slug": o["playing"].slug},
        "rating-run-detail": {"pk": o["run"].pk},
        "money-due-detail": {"reference": entry_reference(o["my_open_entry"])},
        "money-refund-detail": {"number": o["credit"].number},
    }


def api_kwargs(world: World, name: str) -> dict | None:
    """Path parameters of an API route (without its format suffix)."""
    o = world.objects
    known = _api_kwargs(world).get(name)
    if known is not None:
        return known
    prefixes = {
        "my-entry-": {"pk": o["my_open_entry"].pk},
        "organiser-entry-": {"pk": o["rival_entry"].pk},
        "play-division-": {"pk": o["division"].pk},
        "play-event-": {"slug": o["playing"].slug},
        "money-payment-": {"number": o["payment"].number},
    }
    for prefix, kwargs in prefixes.items():
        if name.startswith(prefix) and name != f"{prefix}list":
            return kwargs
    if name.startswith("play-round-") and name != "play-round-list":
        draft = name in ("play-round-publish", "play-round-delete-draft", "play-round-swap")
        return {"pk": (o["draft_round"] if draft else o["first_round"]).pk}
    if name.startswith("play-game-") and name != "play-game-list":
        return {"pk": (o["other_game"] if name in ("play-game-confirm", "play-game-dispute") else o["my_game"]).pk}
    return None


def admin_kwargs(name: str, route: str) -> dict | None:
    """Path parameters of an admin page: the first object of its model."""
    import re

    from django.apps import apps
    from django.contrib.contenttypes.models import ContentType

    if name == "admin:view_on_site":
        event = apps.get_model("events", "Event").objects.order_by("pk").first()
        return {"content_type_id": ContentType.objects.get_for_model(event).pk, "object_id": event.pk}
    if name == "admin:app_list":
        return {"app_label": "events"}
    if "(?P<url>" in route:  # the catch-all: any other address under /admin/
        return {"url": "no-such-page/"}
    found = re.match(r"admin/(\w+)/(\w+)/", route)
    if not found or "<" not in route:
        return {}
    model = apps.get_model(*found.groups())
    obj = model._default_manager.order_by("pk").first()
    if obj is None:
        return None
    param = "id" if "<id>" in route else "object_id"
    return {param: obj.pk}


def url_for(name: str, route: str, kwargs: dict) -> str:
    """The URL of a pattern with these path parameters (an unnamed pattern's, from its route)."""
    import re

    from django.urls import reverse

    if name != route:
        return reverse(name, kwargs=kwargs)
    path = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: str(kwargs[m.group(1)]), route)
    path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(kwargs[m.group(1)]), path)
    return "/" + path.replace("^", "").replace("$", "")

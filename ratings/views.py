"""Rating pages: thin views over ratings.services."""

from datetime import date
from itertools import chain

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from clubsite.kit.csv import csv_response
from clubsite.kit.paging import BoundedPaginator
from clubsite.kit.roles import is_association_staff
from clubsite.kit.ui import run_service
from events.models import Event
from events.permissions import can_direct_event
from players.merging import merged_into
from players.models import Player
from players.visibility import visible_player_or_404, with_profile_visible

from . import services
from .charts import rating_history_svg
from .forms import ImportReviewForm, RatingFilterForm, RatingImportForm, RerateForm
from .models import ImportStatus, PlayerRating, RatingImport, RatingList, RatingRun, RatingSnapshot

PAGE_SIZE = 50
# Rows of a run shown on its page (a re-rating of a whole history has many).
MAX_RUN_ROWS = 500


def _filters(request):
    form = RatingFilterForm(request.GET or None)
    values = {"q": "", "club": "", "country": "", "include_inactive": False}
    if form.is_valid():
        data = form.cleaned_data
        values = {
            "q": data["q"].strip(),
            "club": data["club"].slug if data["club"] else "",
            "country": data["country"].strip(),
            "include_inactive": data["all"],
        }
    return form, values


def _query_without_page(request) -> str:
    query = request.GET.copy()
    query.pop("page", None)
    return query.urlencode()


def rating_list(request, slug: str | None = None):
    """The rating list: rank, name, club, rating and games; active players unless asked."""
    lists = list(RatingList.objects.all())
    if slug is None:
        current = lists[0] if lists else None
    else:
        current = next((rl for rl in lists if rl.slug == slug), None)
        if current is None:
            raise Http404("No such rating list")
    context = {"lists": lists, "rating_list": current}
    if current is not None:
        form, filters = _filters(request)
        rows = services.rated_players(current, **filters)
        searched = filters["q"] or filters["club"] or filters["country"]
        # Counted without the visibility annotation: its join would make the count read every player too. The
        # whole list's counts are kept until its ratings are next written.
        kept_as = "" if searched else services.counts_key(current, include_inactive=filters["include_inactive"])
        pages = services.RatingPages(with_profile_visible(rows, request.user), counted=rows, kept_as=kept_as)
        page = BoundedPaginator(pages, PAGE_SIZE).get_page(request.GET.get("page"))
        page.object_list = services.rank_players(
            current,
            page.object_list,
            include_inactive=filters["include_inactive"],
            ranks=None if searched else pages.ranks(),
        )
        context.update(
            form=form,
            page=page,
            query=_query_without_page(request),
            include_inactive=filters["include_inactive"],
            active_since=services.active_since(current),
            csv_query=request.GET.urlencode(),
            # The import is offered only to staff, and only while the list can take a file.
            can_import=is_association_staff(request.user) and services.import_refusal(current) is None,
        )
    return render(request, "ratings/rating_list.html", context)


def rating_list_csv(request, slug: str):
    """The rating list as a spreadsheet, with the page's filters (every cell formula-safe: a name is text a
    member typed)."""
    current = get_object_or_404(RatingList, slug=slug)
    _form, filters = _filters(request)
    rows = with_profile_visible(services.rated_players(current, **filters), request.user)
    ranks = services.rank_map(current, include_inactive=filters["include_inactive"])
    header = [
        "rank",
        "member_number",
        "name",
        "club",
        "country",
        "rating",
        "games",
        "peak",
        "last_played",
        "provisional",
    ]
    lines = (
        [
            ranks.get(r.rating),
            r.player.member_number if r.profile_visible else "",
            r.player.name,
            r.player.club.name if r.player.club_id else "",
            r.player.country,
            r.rating,
            r.games,
            r.peak,
            r.last_played.isoformat() if r.last_played else "",
            "yes" if r.is_provisional(current.provisional_games) else "no",
        ]
        for r in rows.iterator(chunk_size=2000)
    )
    return csv_response(f"{current.slug}-{timezone.localdate():%Y-%m-%d}.csv", chain([header], lines))


def snapshot_index(request, slug: str):
    current = get_object_or_404(RatingList, slug=slug)
    snapshots = current.snapshots.order_by("-taken_on")
    return render(request, "ratings/snapshot_index.html", {"rating_list": current, "snapshots": snapshots})


def snapshot_detail(request, slug: str, taken_on: str):
    try:
        day = date.fromisoformat(taken_on)
    except ValueError:
        raise Http404("Not a date")
    snapshot = get_object_or_404(
        RatingSnapshot.objects.select_related("rating_list"), rating_list__slug=slug, taken_on=day
    )
    include_inactive = request.GET.get("all") == "1"
    rows = services.snapshot_entries(snapshot, include_inactive=include_inactive)
    page = BoundedPaginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "ratings/snapshot_detail.html",
        {
            "snapshot": snapshot,
            "rating_list": snapshot.rating_list,
            "page": page,
            "include_inactive": include_inactive,
            "query": _query_without_page(request),
        },
    )


def _visible_player(request, member_number: int) -> Player:
    return visible_player_or_404(request.user, Player.objects.select_related("club"), member_number=member_number)


def player_history(request, slug: str, member_number: int):
    current = get_object_or_404(RatingList, slug=slug)
    try:
        player = _visible_player(request, member_number)
    except Http404:
        if kept := merged_into(member_number):  # a merged record's number: the person's history is the kept one's
            return redirect("ratings:player_history", current.slug, kept.member_number, permanent=True)
        raise
    standing = PlayerRating.objects.filter(rating_list=current, player=player).first()
    history = list(services.player_history(current, player.pk))
    return render(
        request,
        "ratings/player_history.html",
        {"rating_list": current, "player": player, "standing": standing, "history": history},
    )


def player_chart(request, slug: str, member_number: int):
    """The player's rating after each rated event on the list, as an SVG image."""
    current = get_object_or_404(RatingList, slug=slug)
    player = _visible_player(request, member_number)
    points = []
    seed = PlayerRating.objects.filter(rating_list=current, player=player).values_list("seed_rating", "seed_on").first()
    history = list(services.player_history(current, player.pk).values_list("event_date", "post"))
    if seed and seed[0] and seed[1] and (not history or seed[1] <= history[0][0]):
        points.append((seed[1], seed[0]))
    points += history
    svg = rating_history_svg(f"{player.name} · {current.name}", points)
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    response["Cache-Control"] = "public, max-age=300"
    return response


def event_report(request, slug: str):
    """Each rated player of the event: rating before and after, change, wins and performance."""
    event = get_object_or_404(Event.objects.select_related("rating_list"), slug=slug)
    if not event.is_public and not can_direct_event(request.user, event):
        raise Http404("No such event")
    rows = list(with_profile_visible(services.event_report(event), request.user))
    divisions = []
    for row in rows:
        if not divisions or divisions[-1]["division"].pk != row.division_id:
            divisions.append({"division": row.division, "rating_list": row.rating_list, "rows": []})
        divisions[-1]["rows"].append(row)
    last_run = RatingRun.objects.filter(event=event).select_related("rating_list").first()
    return render(
        request,
        "ratings/event_report.html",
        {
            "event": event,
            "divisions": divisions,
            "last_run": last_run,
            "can_rate": event.rated and event.rating_list_id and can_direct_event(request.user, event),
        },
    )


@login_required
@require_POST
def event_rate(request, slug: str):
    event = get_object_or_404(Event.objects.select_related("rating_list"), slug=slug)
    run = run_service(request, lambda: services.queue_rating_run(event, actor=request.user))
    return redirect(run) if run else redirect("ratings:event_report", slug=event.slug)


def run_detail(request, pk: int):
    services.sweep_stale_runs()
    run = get_object_or_404(RatingRun.objects.select_related("rating_list", "event"), pk=pk)
    changes = list(
        run.changes.select_related("division__event", "player").order_by(
            "event_date", "division__event_id", "division__position", "division__name", "-post"
        )[:MAX_RUN_ROWS]
    )
    return render(request, "ratings/run_detail.html", {"run": run, "changes": changes, "max_rows": MAX_RUN_ROWS})


def run_progress(request, pk: int):
    services.sweep_stale_runs()
    run = get_object_or_404(RatingRun, pk=pk)
    return JsonResponse(
        {
            "status": run.status,
            "status_display": run.get_status_display(),
            "progress": run.progress,
            "finished": run.is_finished,
            "error": run.error,
        }
    )


def _staff_only(request):
    if not is_association_staff(request.user):
        raise PermissionDenied("Only association staff can do this.")


@login_required
def rerate(request, slug: str):
    _staff_only(request)
    current = get_object_or_404(RatingList, slug=slug)
    form = RerateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        run = run_service(
            request, lambda: services.queue_rerate(request.user, current, form.cleaned_data["from_date"]), form=form
        )
        if run:
            return redirect(run)
    runs = current.runs.select_related("event")[:20]
    return render(request, "ratings/rerate.html", {"rating_list": current, "form": form, "runs": runs})


@login_required
def import_upload(request, slug: str):
    _staff_only(request)
    current = get_object_or_404(RatingList, slug=slug)
    refusal = services.import_refusal(current)
    if refusal:
        # Said before anything is chosen or sent: no form for a list that cannot take a file.
        return render(request, "ratings/import_upload.html", {"rating_list": current, "refusal": refusal})
    form = RatingImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        imp = run_service(
            request,
            lambda: services.prepare_rating_import(
                request.user,
                current,
                form.cleaned_data["file"],
                filename=request.FILES["file"].name,
                as_of=form.cleaned_data["as_of"],
            ),
            form=form,
        )
        if imp:
            return redirect(imp)
    return render(request, "ratings/import_upload.html", {"rating_list": current, "form": form})


@login_required
def import_review(request, pk: int):
    _staff_only(request)
    imp = get_object_or_404(RatingImport.objects.select_related("rating_list"), pk=pk)
    lines = list(imp.lines.select_related("player"))
    candidate_ids = {pid for line in lines for pid in line.candidates}
    players_by_id = Player.objects.select_related("club").in_bulk(candidate_ids)
    form = ImportReviewForm(lines, players_by_id, request.POST or None)
    if request.method == "POST" and imp.status == ImportStatus.REVIEW:
        if "cancel" in request.POST:
            cancelled = "The import is cancelled; nothing was changed."
            if run_service(request, lambda: services.cancel_rating_import(request.user, imp), cancelled, form=form):
                return redirect(imp.rating_list)
        elif form.is_valid():
            applied = f"{len(lines)} ratings are now on {imp.rating_list.name}."
            if run_service(
                request, lambda: services.apply_rating_import(request.user, imp, form.decisions()), applied, form=form
            ):
                return redirect(imp.rating_list.get_absolute_url() + "?all=on")
    counts = {kind: sum(1 for line in lines if line.match == kind) for kind in ("exact", "review", "new")}
    return render(
        request,
        "ratings/import_review.html",
        {
            "rating_import": imp,
            "rows": [(line, form.field_for(line)) for line in lines],
            "form": form,
            "counts": counts,
        },
    )

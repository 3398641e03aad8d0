from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch, Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from clubsite.kit.errors import ServiceError
from clubsite.kit.hooks import collect
from clubsite.kit.paging import BoundedPaginator
from clubsite.kit.roles import is_association_staff
from clubsite.kit.ui import run_service, safe_next

from . import joining, memberimport, merging, services, visibility
from .forms import (
    ClaimForm,
    DirectorySearchForm,
    JoinForm,
    MembersMappingForm,
    MembersUploadForm,
    MergeForm,
    ProfileForm,
    RenewalPaymentForm,
)
from .memberfile import guess_mapping
from .models import Membership, Player, RenewalRequest, RenewalStatus, by_family_name

PAGE_SIZE = 25


def directory(request):
    form = DirectorySearchForm(request.GET or None)
    players = visibility.visible_players(request.user, Player.objects.select_related("club"))
    if form.is_valid():
        if q := form.cleaned_data["q"].strip():
            players = players.filter(Q(full_name__icontains=q) | Q(display_name__icontains=q))
        if club := form.cleaned_data["club"]:
            players = players.filter(club=club)
    page = BoundedPaginator(players.order_by(*by_family_name()), PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "players/directory.html", {"form": form, "page": page, "query": query.urlencode()})


def player_detail(request, member_number: int):
    today = timezone.localdate()
    players = Player.objects.select_related("club", "user").prefetch_related(
        Prefetch("memberships", queryset=Membership.objects.select_related("association"))
    )
    try:
        player = visibility.visible_player_or_404(request.user, players, member_number=member_number)
    except Http404:
        if kept := merging.merged_into(member_number):
            # The number of a record merged into another: the person's page now is the kept record's.
            return redirect(kept.get_absolute_url(), permanent=True)
        return render(request, "players/unlisted.html", status=404)
    can_see_private = is_association_staff(request.user) or (player.user_id and player.user_id == request.user.id)
    memberships = list(player.memberships.all())
    current = [m for m in memberships if m.is_current(today)]
    context = {
        "player": player,
        "memberships": memberships,
        "is_current_member": bool(current),
        "can_see_private": can_see_private,
        "today": today,
    }
    context.update(collect("player_page_context", player))
    return render(request, "players/player_detail.html", context)


@login_required
@require_safe
def me(request):
    return _account_page(request, services.ensure_own_player(request.user))


@login_required
def profile(request):
    """The member's own profile, on a page of its own (the account page shows it and links here).

    `next`: a page of the site to go back to once saved (an entry that needed the school level); `need`: the
    fields that page asked for, shown first."""
    player = services.ensure_own_player(request.user)
    next_url = safe_next(request, request.POST.get("next") or request.GET.get("next"))
    need = tuple(request.GET.getlist("need"))
    if request.method == "POST":
        form = ProfileForm(request.POST, instance=Player.objects.get(pk=player.pk), next_url=next_url, need=need)
        if form.is_valid():
            try:
                data = {name: form.cleaned_data[name] for name in [*form.Meta.fields, "guardian_opt_in"]}
                services.update_profile(request.user, player, **data)
            except ServiceError as error:
                form.add_service_error(error)
            else:
                messages.success(request, "Your profile is saved.")
                return redirect(next_url or "players:me")
    else:
        form = ProfileForm(instance=player, next_url=next_url, need=need)
    needed = [str(form.fields[name].label).lower() for name in form.needed]
    context = {"form": form, "player": player, "needed": needed, "next_url": next_url}
    return render(request, "players/profile.html", context)


def _account_page(request, player: Player, claim_form: ClaimForm | None = None):
    """My account: the profile as it stands, and the claim form (bound to what was just sent, after a refusal)."""
    claims = request.user.claims.select_related("player")
    open_renewal = player.renewals.filter(status=RenewalStatus.REQUESTED).first()
    may_claim = services.may_claim(request.user)
    context = {
        "player": player,
        "claims": claims,
        "claim_form": claim_form or ClaimForm(),
        "may_claim": may_claim,
        # The records the matching rule finds may be this person's, each with a button to claim it.
        "maybe_theirs": services.records_maybe_theirs(request.user, player) if may_claim else [],
        "open_renewal": open_renewal,
        "membership": Membership.objects.filter(player=player).current().order_by("-expires_on").first(),
    }
    context.update(collect("account_page_context", request, player))
    return render(request, "players/me.html", context)


@login_required
@require_POST
def claim(request):
    form = ClaimForm(request.POST)
    if form.is_valid():
        try:
            c = services.request_claim(request.user, form.cleaned_data["member_number"], form.cleaned_data["message"])
        except ServiceError as error:
            form.add_service_error(error)
        else:
            if c.player.email and c.player.email.lower() == request.user.email.lower():
                messages.success(request, "We have emailed a confirmation link to the address on that record.")
            else:
                messages.success(request, "Your claim is waiting for association staff to approve it.")
            return redirect("players:me")
    # The page again, with what was typed and the refusal beside the field it concerns.
    return _account_page(request, services.ensure_own_player(request.user), form)


@login_required
def claim_confirm(request, token: str):
    try:
        services.confirm_claim_by_token(request.user, token)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, "The member record is now linked to your account.")
    return redirect("players:me")


# --- renewing a membership --------------------------------------------------------------------


@login_required
def renew(request):
    """The member's own renewal: the amount due and how to pay; staff then record the payment."""
    player = services.ensure_own_player(request.user)
    if not player.memberships.exists():
        return redirect("players:join")  # nothing to renew: a first membership is joined
    if request.method == "POST":
        try:
            if "cancel" in request.POST:
                pk = request.POST["cancel"]  # the request's id, from the button
                renewal = get_object_or_404(RenewalRequest, pk=int(pk) if pk.isdigit() else None, player=player)
                services.cancel_renewal(request.user, renewal)
                messages.info(request, "Your renewal request is cancelled.")
            else:
                services.request_renewal(request.user, player)
                messages.success(request, "Your renewal is noted. Pay the amount below to complete it.")
        except ServiceError as error:
            messages.error(request, error.message)
        return redirect("players:renew")
    open_request = player.renewals.filter(status=RenewalStatus.REQUESTED).select_related("association").first()
    quote = error = None
    try:
        quote = services.renewal_quote(player)
    except ServiceError as e:
        error = e.message
    context = {
        "player": player,
        "open_request": open_request,
        "quote": quote,
        "quote_error": error,
        "current": Membership.objects.filter(player=player).current().order_by("-expires_on").first(),
        # A renewal already paid: the next membership, starting when the current one ends.
        "renewed": Membership.objects.filter(player=player, starts_on__gt=timezone.localdate())
        .order_by("-starts_on")
        .first(),
        "history": player.renewals.exclude(status=RenewalStatus.REQUESTED)[:10],
    }
    return render(request, "players/renew.html", context)


def join(request):
    """Joining the association: the types open online and their fees; signed in, the form, then what is due and how
    to pay it (as a renewal is paid). Someone who has had a membership renews instead."""
    offers = joining.offers().order_by("fee", "type")
    user = request.user
    player = Player.objects.filter(user=user).first() if user.is_authenticated else None
    if player and player.memberships.exists():
        return redirect("players:renew")
    open_join = joining.open_join(user) if player else None
    if open_join and request.method == "POST" and "cancel" in request.POST:
        if run_service(request, lambda: services.cancel_renewal(user, open_join), "Your request to join is cancelled."):
            return redirect("players:join")
    form = None
    if user.is_authenticated and open_join is None:
        initial = {"full_name": player.full_name, "family_name": player.family_name} if player else {}
        if player and player.date_of_birth:
            initial["date_of_birth"] = player.date_of_birth
        form = JoinForm(request.POST or None, offers=offers, initial=initial)
        if request.method == "POST" and form.is_valid():
            try:
                joined = joining.join(user, **form.cleaned_data)
            except joining.AlreadyMember as error:
                messages.info(request, error.message)
                return redirect("players:renew")
            except ServiceError as error:
                form.add_service_error(error)
            else:
                if joined.membership_id:
                    messages.success(request, f"Welcome: you are member {joined.player.member_number}.")
                    return redirect("players:me")
                messages.success(request, "Your membership is noted. Pay the amount below to complete it.")
                return redirect("players:join")
    elif request.method == "POST":
        return redirect(f"{reverse('account_login')}?next={reverse('players:join')}")
    return render(request, "players/join.html", {"offers": offers, "form": form, "open_join": open_join})


@login_required
@require_POST
def join_approve(request, pk: int):
    _staff_only(request)
    renewal = get_object_or_404(RenewalRequest, pk=pk)
    try:
        joined = joining.approve_join(request.user, renewal)
    except ServiceError as error:
        messages.error(request, f"{renewal.player}: {error.message}")
    else:
        done = "is a member now" if joined.membership_id else "becomes a member once paid in full"
        messages.success(request, f"{renewal.player}'s join is approved: {done}.")
    return redirect("players:renewals")


def _staff_only(request):
    if not is_association_staff(request.user):
        raise PermissionDenied("Only association staff can do this.")


@login_required
def renewals(request):
    """Staff: open renewal requests, each with a form to record its payment."""
    _staff_only(request)
    open_requests = RenewalRequest.objects.filter(status=RenewalStatus.REQUESTED).select_related("player")
    rows = [(r, RenewalPaymentForm(prefix=f"r{r.pk}")) for r in open_requests.order_by("requested_at")]
    return render(request, "players/renewals.html", {"rows": rows})


@login_required
@require_POST
def renewal_paid(request, pk: int):
    _staff_only(request)
    renewal = get_object_or_404(RenewalRequest, pk=pk)
    form = RenewalPaymentForm(request.POST, prefix=f"r{pk}")
    if not form.is_valid():
        messages.error(request, f"{renewal.player}: " + " ".join(e for errs in form.errors.values() for e in errs))
        return redirect("players:renewals")
    try:
        membership = services.record_renewal_payment(request.user, renewal, **form.cleaned_data)
    except ServiceError as error:
        messages.error(request, f"{renewal.player}: {error.message}")
    else:
        if membership is None:  # a join paid in full, waiting for approval
            messages.success(request, f"{renewal.player}'s payment is recorded: approve the join to make them member.")
        elif membership.expires_on is None:
            messages.success(request, f"{renewal.player} is a member for life.")
        else:
            messages.success(request, f"{renewal.player} is a member until {membership.expires_on:%d %B %Y}.")
    return redirect("players:renewals")


# --- merging two records of one person --------------------------------------------------------


def _record(number: str) -> Player:
    return get_object_or_404(
        Player.objects.select_related("user", "club"), member_number=int(number) if number.isdigit() else None
    )


@login_required
def merge(request):
    """Staff: two records of one person (?a=&b=, member numbers) side by side, with what each holds, and the merge."""
    _staff_only(request)
    if not (request.GET.get("a") and request.GET.get("b")):
        return render(request, "players/merge.html", {"sides": []})  # first, which two records
    a, b = _record(request.GET["a"]), _record(request.GET["b"])
    form = MergeForm(request.POST or None, records=(a, b))
    if request.method == "POST" and form.is_valid():
        keep, drop = (a, b) if form.cleaned_data["keep"] == str(a.member_number) else (b, a)
        done = run_service(
            request,
            lambda: merging.merge_players(request.user, keep, drop, form.cleaned_data["reason"]),
            f"Member {drop.member_number} is now part of member {keep.member_number}; the old number leads here.",
            form=form,
        )
        if done:
            return redirect(keep.get_absolute_url())
    sides = [(p, merging.holdings(p), merging.paid(p)) for p in (a, b)]
    return render(request, "players/merge.html", {"form": form, "sides": sides})


IMPORT_SALT = "players.members-import"
IMPORT_MAX_AGE = 12 * 3600  # a preview left overnight is uploaded again
IMPORT_MAX_SIGNED = 2_000_000  # the file as the page carries it, under the site's limit for a form's fields
ROWS_SHOWN = 100  # lines shown as they are; a line to choose or refused is always shown


@login_required
def members_import(request):
    """Staff: upload a members spreadsheet, map its columns, preview what it does, and import it all at once
    (players.memberimport). The file travels signed in the page between the steps: nothing is saved until the
    import."""
    _staff_only(request)
    lists = memberimport.rating_lists()
    if request.method != "POST":
        return render(request, "players/members_import.html", {"upload": MembersUploadForm()})
    if "data" not in request.POST:
        upload = MembersUploadForm(request.POST, request.FILES)
        text = upload.is_valid() and run_service(
            request, lambda: _read_upload(upload.cleaned_data["file"]), form=upload
        )
        if not text:
            return render(request, "players/members_import.html", {"upload": upload})
        signed = signing.dumps(text, salt=IMPORT_SALT, compress=True)
        if len(signed) > IMPORT_MAX_SIGNED:
            upload.add_error("file", "The file is too large to preview in one go: split it in parts.")
            return render(request, "players/members_import.html", {"upload": upload})
        header = memberimport.read_table(text).header
        mapping = guess_mapping(header)
        # A rating column goes on the one list that can take ratings, when there is one; else staff choose.
        chosen = lists[0][0] if len(lists) == 1 and "rating" in mapping else None
        initial = {"data": signed, "rating_list": chosen, **{f"col_{k}": v for k, v in mapping.items()}}
        form = MembersMappingForm(header, lists, initial=initial)
        found = run_service(
            request, lambda: memberimport.preview(request.user, text, mapping, rating_list=chosen), form=form
        )
        return _preview_page(request, form, found)
    try:
        text = signing.loads(request.POST["data"], salt=IMPORT_SALT, max_age=IMPORT_MAX_AGE)
        header = memberimport.read_table(text).header
    except (signing.BadSignature, ServiceError, TypeError):
        messages.error(request, "The file could not be read back (or its preview is over 12 hours old): upload again.")
        return redirect("players:members_import")
    form = MembersMappingForm(header, lists, request.POST)
    if not form.is_valid():
        return _preview_page(request, form, None)
    decisions = {
        int(name[5:]): value
        for name, value in request.POST.items()
        if name.startswith("line_") and name[5:].isdigit() and len(name) < 16
    }
    options = {"rating_list": form.cleaned_data["rating_list"], "decisions": decisions}
    if "import" in request.POST:
        mapping = form.mapping()
        done = run_service(request, lambda: memberimport.apply(request.user, text, mapping, **options), form=form)
        if done:
            messages.success(
                request,
                f"Imported: {len(done.created)} new member{'s' if len(done.created) != 1 else ''}, "
                f"{done.matched} on record already, {done.memberships} membership{'s' if done.memberships != 1 else ''}"
                f", {done.ratings} rating{'s' if done.ratings != 1 else ''}.",
            )
            return redirect("players:members_import")
    found = run_service(request, lambda: memberimport.preview(request.user, text, form.mapping(), **options), form=form)
    return _preview_page(request, form, found)


def _read_upload(upload) -> str:
    text = memberimport.decode(upload.read(memberimport.MAX_FILE_BYTES + 1))
    memberimport.read_table(text)  # a file that cannot be read at all is refused at the upload
    return text


def _preview_page(request, form, found):
    rows = []
    if found:
        plain = 0
        for row in found.rows:
            if row.line.errors or row.to_choose or row.found and row.found.is_likely:
                rows.append(row)
            elif plain < ROWS_SHOWN:
                rows.append(row)
                plain += 1
    context = {"form": form, "preview": found, "rows": rows, "hidden": len(found.rows) - len(rows) if found else 0}
    if found:
        context["counts"] = found.counts
    return render(request, "players/members_import.html", context)

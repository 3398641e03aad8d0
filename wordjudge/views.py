"""Pages of the word judge: lexicons (staff), the director's judge page and log, and the venue tablet."""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from clubsite.kit.roles import is_association_staff
from clubsite.kit.ui import run_service
from events.models import Event
from events.permissions import can_direct_event

from . import services
from .forms import ChallengeForm, LexiconUploadForm
from .models import Judgement, Lexicon


@login_required
def lexicons(request):
    if not is_association_staff(request.user):
        raise PermissionDenied("Only association staff can manage lexicons.")
    form = LexiconUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        lexicon = run_service(
            request,
            lambda: services.import_lexicon(request.user, form.cleaned_data["name"], upload.read()),
            form=form,
        )
        if lexicon:
            noun = "word" if lexicon.word_count == 1 else "words"
            request.session["wordjudge_uploaded"] = f"{lexicon.name}: {lexicon.word_count:,} {noun} imported."
            return redirect("wordjudge:lexicons")
    uploaded = request.session.pop("wordjudge_uploaded", "")
    context = {"form": form, "lexicons": Lexicon.objects.defer("words"), "uploaded": uploaded}
    return render(request, "wordjudge/lexicons.html", context)


def _directed_event(request, slug: str) -> Event:
    event = get_object_or_404(Event, slug=slug)
    if not can_direct_event(request.user, event):
        raise PermissionDenied("Only the event's directors can run its word judge.")
    return event


@login_required
def director(request, slug: str):
    event = _directed_event(request, slug)
    session = services.open_session(event)
    tablet_url = request.build_absolute_uri(reverse("wordjudge:tablet", args=[session.token])) if session else ""
    context = {
        "event": event,
        "session": session,
        "tablet_url": tablet_url,
        "lexicon": services.lexicon_named(event.lexicon),
        "no_lexicon": services.no_lexicon_message(event),
        "judgements": services.judgement_log(event)[:500],
    }
    return render(request, "wordjudge/director.html", context)


@login_required
@require_POST
def open_judge(request, slug: str):
    event = _directed_event(request, slug)
    run_service(request, lambda: services.open_judge(request.user, event), "The word judge is open.")
    return redirect("wordjudge:director", slug=slug)


@login_required
@require_POST
def close_judge(request, slug: str):
    event = _directed_event(request, slug)
    closed = "The word judge is closed; its address no longer works."
    run_service(request, lambda: services.close_judge(request.user, event), closed)
    return redirect("wordjudge:director", slug=slug)


def tablet(request, token: str):
    """The venue's tablet: no account needed, only the address the director opened."""
    session = services.session_for_token(token)
    if session is None:
        return render(request, "wordjudge/closed.html", status=404)
    event = session.event
    lexicon = services.lexicon_named(event.lexicon)
    form = ChallengeForm(request.POST or None)
    if request.method == "POST" and lexicon and form.is_valid():
        ruling = run_service(
            request,
            lambda: services.judge(token, form.cleaned_data["words"], form.cleaned_data["board"]),
            form=form,
        )
        if ruling:
            return redirect(f"{reverse('wordjudge:tablet', args=[token])}?ruling={ruling.pk}")
    ruling = None
    ruling_id = request.GET.get("ruling", "")
    if request.method == "GET" and ruling_id.isdigit():
        ruling = Judgement.objects.filter(pk=int(ruling_id), session=session).first()
    context = {
        "event": event,
        "lexicon": lexicon,
        "no_lexicon": services.no_lexicon_message(event),
        "form": form if not ruling else ChallengeForm(),
        "ruling": ruling,
    }
    return render(request, "wordjudge/tablet.html", context)

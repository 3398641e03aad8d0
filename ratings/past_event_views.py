"""Staff bring a past event in from its tsh file, for a rating list: upload, preview, confirm (as directors import a
division, through the same preview and import), then the event is rated on the list in date order."""

import secrets

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from clubsite.kit.ui import run_service
from events.play.views.imports import UPLOAD_SECONDS, choices_from, uploaded_texts

from .forms import PastEventForm
from .models import RatingList
from .services.past_events import import_past_event, preview_past_event
from .views import _staff_only


def _key(request, rating_list, token: str) -> str:
    return f"past-event-import:{rating_list.pk}:{request.user.pk}:{token}"


def _context(rating_list, preview, token: str) -> dict:
    back = reverse("ratings:list_detail", args=[rating_list.slug])
    return {"preview": preview, "token": token, "back_url": back, "back_title": rating_list.name}


@login_required
@require_http_methods(["GET", "POST"])
def import_past_event_page(request, slug: str):
    _staff_only(request)
    rating_list = get_object_or_404(RatingList, slug=slug)
    token = request.POST.get("token", "")
    if token:
        stored = cache.get(_key(request, rating_list, token))
        if stored is None:
            messages.error(request, "The files read earlier are no longer kept (after an hour): upload them again.")
            return redirect("ratings:import_event", rating_list.slug)
        preview = run_service(request, lambda: preview_past_event(request.user, **stored))
        if preview is None:
            return redirect("ratings:import_event", rating_list.slug)
        if "confirm" in request.POST:
            report = run_service(
                request,
                lambda: import_past_event(request.user, rating_list, choices=choices_from(request, preview), **stored),
                "Imported; the event is rated on the list from its date (every later event after it).",
            )
            if report is not None:
                cache.delete(_key(request, rating_list, token))
                return redirect("ratings:event_report", report.event.slug)
        return render(request, "events/play/import_preview.html", _context(rating_list, preview, token))
    form = PastEventForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():

        def read_and_preview():
            texts = {
                **uploaded_texts(form),
                "title": form.cleaned_data["title"] or None,
                "starts_on": form.cleaned_data["starts_on"],
            }
            return texts, preview_past_event(request.user, **texts)

        done = run_service(request, read_and_preview, form=form)
        if done is not None:
            texts, preview = done
            token = secrets.token_urlsafe(16)
            cache.set(_key(request, rating_list, token), texts, UPLOAD_SECONDS)
            return render(request, "events/play/import_preview.html", _context(rating_list, preview, token))
    return render(request, "ratings/import_event.html", {"rating_list": rating_list, "form": form})

"""A director imports a tsh `.t` file (with its config.tsh) into a new division: upload, preview, confirm.

Nothing is saved before the director confirms. The files read at the upload wait in the cache under a token
bound to the director and the event; the confirmation reads them again through the same import, which checks
everything again and saves all or nothing.
"""

import secrets

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from clubsite.kit.ui import run_service
from events.play.core import tsh
from events.play.forms import TshUploadForm
from events.play.services import tsh_io
from events.play.services.common import PlayError
from events.play.services.tsh_preview import from_archive, preview_tsh

from .common import _directed_event

UPLOAD_SECONDS = 3600  # an hour to check the preview and confirm


def _key(request, event, token: str) -> str:
    return f"tsh-import:{event.pk}:{request.user.pk}:{token}"


def read_upload(upload, what: str) -> str:
    if upload.size > tsh.MAX_FILE_BYTES:
        raise PlayError(
            f"The {what} is over {tsh.MAX_FILE_BYTES // 1_000_000} MB: a .t file of {tsh.MAX_PLAYERS} players and "
            f"{tsh.MAX_ROUNDS} rounds is smaller. Is it the right file?",
            field={".t file": "t_file", "config.tsh": "config_file"}.get(what, "archive_file"),
        )
    return tsh.decode_tsh_bytes(upload.read())


def choices_from(request, preview) -> dict[int, int | None]:
    """The member chosen for each player on the preview (a member's id, or None for "new"); a player left on "choose"
    is not in it, and the import refuses it if the name may be a member's."""
    chosen: dict[int, int | None] = {}
    for row in preview.rows:
        value = request.POST.get(f"player_{row.number}", "")
        if value.isdigit():
            chosen[row.number] = int(value)
        elif value == "new":
            chosen[row.number] = None
    return chosen


def _preview_context(event, preview, token: str) -> dict:
    back = reverse("events:play_hub", args=[event.slug])
    return {"event": event, "preview": preview, "token": token, "back_url": back, "back_title": event.title}


def uploaded_texts(form) -> dict:
    """The `.t` text, config text and division name of a valid TshUploadForm (a file and its config, or an
    archive's division)."""
    data = form.cleaned_data
    if data["archive_file"]:
        return from_archive(read_upload(data["archive_file"], "archive"), data["division_name"] or None)
    return {
        "text": read_upload(data["t_file"], ".t file"),
        "config_text": read_upload(data["config_file"], "config.tsh") if data["config_file"] else None,
        "division_name": data["division_name"] or None,
    }


@login_required
@require_http_methods(["GET", "POST"])
def import_tsh_page(request, slug: str):
    event = _directed_event(request, slug)
    form = TshUploadForm(request.POST or None, request.FILES or None)
    token = request.POST.get("token", "")
    if token:
        stored = cache.get(_key(request, event, token))
        if stored is None:
            messages.error(
                request, "The files read earlier are no longer kept (an hour has passed): upload them again."
            )
            return redirect("events:play_import_tsh", event.slug)
        preview = run_service(request, lambda: preview_tsh(request.user, event=event, **stored))
        if preview is None:
            return redirect("events:play_import_tsh", event.slug)
        if "confirm" in request.POST:
            report = run_service(
                request,
                lambda: tsh_io.import_tsh(request.user, event=event, choices=choices_from(request, preview), **stored),
                f"Imported division {stored.get('division_name') or preview.division_name}.",
            )
            if report is not None:
                cache.delete(_key(request, event, token))
                return redirect("events:play_standings", event.slug, report.division.pk)
        return render(request, "events/play/import_preview.html", _preview_context(event, preview, token))
    if request.method == "POST" and form.is_valid():

        def read_and_preview():
            texts = uploaded_texts(form)
            return texts, preview_tsh(request.user, event=event, **texts)

        done = run_service(request, read_and_preview, form=form)
        if done is not None:
            texts, preview = done
            token = secrets.token_urlsafe(16)
            cache.set(_key(request, event, token), texts, UPLOAD_SECONDS)
            return render(request, "events/play/import_preview.html", _preview_context(event, preview, token))
    return render(request, "events/play/import_upload.html", {"event": event, "form": form})

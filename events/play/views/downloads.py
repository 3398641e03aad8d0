"""tsh files for directors: the division's .t file, config.tsh and the whole archive."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse

from events.play.services import tsh_io

from .common import _directed_event, _division


def _text_attachment(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
def download_t(request, slug: str, pk: int):
    event = _directed_event(request, slug)
    div = _division(event, pk)
    return _text_attachment(tsh_io.export_tsh(div), tsh_io.tsh_file_name(div.name))


@login_required
def download_config(request, slug: str):
    event = _directed_event(request, slug)
    return _text_attachment(tsh_io.export_config(event), "config.tsh")


@login_required
def download_archive(request, slug: str):
    event = _directed_event(request, slug)
    return _text_attachment(tsh_io.export_archive(event), f"{event.slug}-tsh.txt")

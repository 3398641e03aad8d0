"""Answers the site gives before, or instead of, any view: a request body too large to read (413), and the
database not answering (503, a page that asks to try again in a minute, never a traceback)."""

from __future__ import annotations

import logging
import sys

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string

from .api import _is_api
from .api import server_error as site_server_error
from .health import database_unavailable

log = logging.getLogger(__name__)

TOO_LARGE = "The request is too large: the site accepts at most {limit} at once."
UNAVAILABLE = "The site is temporarily unavailable. Try again in a minute."
RETRY_AFTER_SECONDS = 60


def _size(n: int) -> str:
    return f"{n / (1024 * 1024):g} MB" if n >= 1024 * 1024 else f"{n:,} bytes"


class RequestSizeLimit:
    """Refuses a request whose body is larger than settings.MAX_REQUEST_BYTES, by its Content-Length, before
    anything reads it: no view runs and nothing is written to disk. (A body without a Content-Length is read by
    Django as empty.) First in MIDDLEWARE; the proxy in front has its own limit (README, production)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        limit = settings.MAX_REQUEST_BYTES
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0  # Django reads an unreadable Content-Length as no body at all
        if length > limit:
            message = TOO_LARGE.format(limit=_size(limit))
            log.warning("request refused: %s bytes to %s (limit %s)", length, request.path, limit)
            if _is_api(request):
                return JsonResponse({"detail": message}, status=413)
            return HttpResponse(message, status=413, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


def unavailable_response(request, error: BaseException) -> HttpResponse:
    """503, asking to try again in a minute: JSON under /api/, a plain page elsewhere (it reads no database)."""
    log.error("database unavailable: %s %s: %s: %s", request.method, request.path, type(error).__name__, error)
    if _is_api(request):
        response = JsonResponse({"detail": UNAVAILABLE}, status=503)
    else:
        context = {"SITE_NAME": settings.SITE_NAME, "message": UNAVAILABLE, "path": request.get_full_path()}
        page = render_to_string("503.html", context)
        response = HttpResponse(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


class DatabaseUnavailable:
    """A view that fails because the database does not answer gets the 503 answer rather than a server error.
    (Errors outside views reach handler500, `server_error` below, which answers the same.)"""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if database_unavailable(exception):
            return unavailable_response(request, exception)
        return None


def server_error(request):
    """handler500: the 503 answer when the error being handled is the database not answering (an error outside a
    view: a session saved as the response leaves, say); otherwise the site's own 500 (clubsite.kit.api)."""
    error = sys.exc_info()[1]
    if database_unavailable(error):
        return unavailable_response(request, error)
    return site_server_error(request)

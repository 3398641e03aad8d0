"""Pages that phones poll at the venue, answered "304 Not Modified" when the copy the browser holds is current.

A player's phone asks for "my game" and the live standings every few seconds for the length of a round, while
nothing on them changes for most of it. A view decorated with `unchanged_since(version_of)` first asks
`version_of(request, ...)` for a cheap fingerprint of what the page shows (from the cache, or a few small queries;
never the page's own reading, nor who the person is beyond their session); the ETag is that fingerprint with the
browser's own cookies (its session and the CSRF secret the page's forms carry), so one person's copy never answers
another's. When the browser sends that ETag back, the answer is a 304 with no body, and the view does not run.

A 304 carries nothing, so it needs no permission: it only tells a browser to keep showing what this same
session was shown at this same fingerprint. Permissions are checked where a page is drawn, and a view that draws
what the fingerprint leaves out (an event's directors see drafts) calls `private_copy(request)`: that copy gets no
ETag, so it is never answered 304. Decorate outside `login_required`, so a poll is answered before the account is
read.

Pages are sent `Cache-Control: private, no-cache`: browsers keep them but must ask each time, and shared caches
keep nothing. A request with messages waiting (a result just submitted) always gets the page itself, which shows
them; so does any method but GET and HEAD, and any request `version_of` answers None for.
"""

from __future__ import annotations

import hashlib
import os
from functools import cache, wraps

from django.conf import settings
from django.contrib.messages import get_messages
from django.http import HttpResponseNotModified
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags, quote_etag

SKIPPED_FOLDERS = {"node_modules", "staticfiles", "artifacts", "tests", "bench", "docs"}


@cache
def release() -> str:
    """Which code renders the pages: a copy rendered before a new release must not be answered "not modified".
    The sizes and modification times of the site's modules and templates (read once a process), which every
    deployment changes; the RELEASE setting instead, where one is given."""
    if settings.RELEASE:
        return settings.RELEASE
    stamps = []
    for folder, folders, files in os.walk(settings.BASE_DIR):
        folders[:] = sorted(f for f in folders if not f.startswith((".", "__")) and f not in SKIPPED_FOLDERS)
        for name in sorted(files):
            if name.endswith((".py", ".html")):
                info = os.stat(os.path.join(folder, name))
                stamps.append((folder, name, info.st_size, info.st_mtime_ns))
    return hashlib.sha256(repr(stamps).encode()).hexdigest()[:16]


def etag_for_all(version) -> str:
    """A key for what a page shows everyone alike under `version`, as this release draws it."""
    return hashlib.sha256(repr((version, release())).encode()).hexdigest()[:24]


def etag_for(version, session_key: str, csrf_secret: str) -> str:
    parts = (repr(version), session_key, csrf_secret, release())
    return quote_etag(hashlib.sha256(repr(parts).encode()).hexdigest()[:24])


def private_copy(request) -> None:
    """What this request is drawn shows more than its fingerprint covers: it is never answered 304."""
    request.private_copy = True


def unchanged_since(version_of):
    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.method not in ("GET", "HEAD") or len(get_messages(request)):
                return view(request, *args, **kwargs)
            version = version_of(request, *args, **kwargs)
            if version is None:
                return view(request, *args, **kwargs)
            # The view may keep what it works out under this version (the standings, shared by everyone).
            request.page_version = version
            # The session the browser sent: a response that changes it (a log-in) makes every copy held before stale.
            session = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
            held = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
            etag = etag_for(version, session, held)
            if etag in parse_etags(request.headers.get("If-None-Match", "")):
                response = HttpResponseNotModified()
            else:
                response = view(request, *args, **kwargs)
                if response.status_code != 200 or getattr(request, "private_copy", False):
                    return response
                # The page's forms carry the secret the browser holds from now on: a first visit is given one.
                etag = etag_for(version, session, request.META.get("CSRF_COOKIE") or held)
            response["ETag"] = etag
            response["Cache-Control"] = "private, no-cache"
            patch_vary_headers(response, ["Cookie"])
            return response

        return wrapper

    return decorator

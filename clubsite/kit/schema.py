"""The API's OpenAPI schema names every answer a client can get, refusals included.

drf-spectacular documents the answer of a request that works (200, 201, 204) and nothing else, so a client built
from the schema knew nothing of the site's refusals; a fuzz of the schema counted them by the hundred as
undocumented. Every API view answers:

- 400 for input it refuses, naming each field at fault (a NUL anywhere in the query or the body is refused by the
  API's first base, `clubsite.kit.api`, before the view runs, so any operation can answer it);
- 401 for credentials that are wrong (a bad or revoked token, or an account that may not log in);
- 403 for a person who may not do this (or, with a session, a request without its CSRF token);
- 404 for an object that does not exist or that the person may not see, on every operation whose path names one,
  and for a page past the last of a paged list;
- 429 where a view says it limits tries (the log-in token, the venue code), through `extend_schema` as before.

Each refusal's body is a JSON object: {"detail": "..."} or one list of messages per field.

It also describes each operation by what it does for a client: the docstring of its own action, else of its own
view class, never a base class's (which speaks of how the code is built), and an action a viewset adds by its own
docstring rather than the viewset's (which says what it lists). `doc_excludes` leaves the site's bases out of
drf-spectacular's search for the docstring of a view or a serializer.

A module of its own: drf-spectacular's schema module imports DRF's generic views, which the API's shared pieces
(clubsite.kit.api) must not import while DRF reads its settings.
"""

from __future__ import annotations

import inspect

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.plumbing import ResolvedComponent

REFUSAL = {
    "type": "object",
    "description": '{"detail": "why"}, or each field at fault with its messages: {"field": ["why"]}',
    "additionalProperties": True,
}
ANSWERS = {
    "400": "The input is refused: each field at fault is named with what is wrong.",
    "401": "The credentials are wrong: a token that does not exist, or an account that may not log in.",
    "403": "Not allowed: this person may not do this (or a session request came without its CSRF token).",
    "404": "No such object, or one this person may not see (for a list: no such page).",
}


class AutoSchema(SpectacularAutoSchema):
    def get_description(self) -> str:
        action = getattr(self.view, getattr(self.view, "action", None) or self.method.lower(), None)
        own = getattr(action, "__func__", action)
        doc = own.__doc__ if own is not None and _written_here(own) else None
        if not doc and not _is_added_action(self.view):
            doc = type(self.view).__dict__.get("__doc__")
        return inspect.cleandoc(doc) if doc else ""

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        refusal = ResolvedComponent(name="Refusal", type=ResolvedComponent.SCHEMA, object="Refusal", schema=REFUSAL)
        self.registry.register_on_missing(refusal)
        paged = self._is_list_view() and self._get_paginator() is not None
        codes = ["400", "401", "403"] + (["404"] if "{" in self.path or paged else [])
        for code in codes:
            responses.setdefault(
                code, {"description": ANSWERS[code], "content": {"application/json": {"schema": refusal.ref}}}
            )
        return responses


def _written_here(function) -> bool:
    """Whether a view's method is the site's own (DRF's and Django's say nothing to a client)."""
    return not function.__module__.startswith(("rest_framework.", "django.", "drf_spectacular."))


STANDARD_ACTIONS = {"list", "retrieve", "create", "update", "partial_update", "destroy"}


def _is_added_action(view) -> bool:
    """Whether the view runs an action a viewset adds (@action), rather than list, retrieve, create, …"""
    name = getattr(view, "action", None)
    return bool(name) and name not in STANDARD_ACTIONS


def doc_excludes() -> list[type]:
    """Classes whose docstrings never describe anything in the schema (SPECTACULAR_SETTINGS' GET_LIB_DOC_EXCLUDES):
    drf-spectacular's list of DRF's own, and the site's bases of every view and serializer."""
    from drf_spectacular.plumbing import get_lib_doc_excludes

    from clubsite.kit.api import ApiView, ModelSerializer

    return [*get_lib_doc_excludes(), ApiView, ModelSerializer]

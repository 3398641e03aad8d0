"""Shared pieces of the REST API.

Every API view takes `ApiView` first among its bases. Before a view runs, it refuses:
- a non-integer (or out of range) id in the URL with a 404, as an unknown id;
- a NUL character in the URL, a query parameter or the request body with a 400 naming the field
  (PostgreSQL cannot store or even compare such text).
Unexpected errors answer JSON (never the site's HTML error page), and are logged as Django logs them.
"""

import logging
import re

from django import forms
from django.conf import settings
from django.core.exceptions import SuspiciousOperation
from django.db import models
from django.http import JsonResponse
from django.views import defaults
from django_filters import rest_framework as filters
from drf_spectacular.utils import OpenApiParameter, extend_schema_field
from rest_framework import pagination, serializers, status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.fields import SkipField
from rest_framework.relations import PKOnlyObject
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from clubsite.kit.errors import NotAllowed, ServiceError
from clubsite.kit.health import database_unavailable
from clubsite.kit.paging import MAX_DEPTH, BoundedPaginator, max_page, too_deep

logger = logging.getLogger("django.request")

# Ids are BigAutoFields; integers in requests stay inside what the database stores.
MAX_ID = 2**63 - 1
MAX_INT = 2**31 - 1
NUL_MESSAGE = "Null characters are not allowed."
SERVER_ERROR = "Server error: the request could not be completed. It has been logged."
_ID = re.compile(r"[0-9]{1,19}")


def service_error_response(error: ServiceError):
    """A ServiceError as a 400 (or 403) naming the field at fault; several problems of several fields, each field
    with its own."""
    code = status.HTTP_403_FORBIDDEN if isinstance(error, NotAllowed) else status.HTTP_400_BAD_REQUEST
    fields = {field for field, _ in error.problems}
    if len(fields) > 1:
        body: dict = {}
        for field, message in error.problems:
            body.setdefault(field or "non_field_errors", []).append(message)
        return Response(body, status=code)
    return Response({error.field: [error.message]} if error.field else {"detail": error.message}, status=code)


def exception_handler(exc, context):
    """Service errors as 400/403; DRF's own errors as DRF answers them; a request Django refuses to read (too
    many fields, too large) as a 400, as Django answers it elsewhere; the database not answering raised on to the
    site's middleware (a 503); anything else as a JSON 500."""
    if isinstance(exc, ServiceError):
        return service_error_response(exc)
    if isinstance(exc, SuspiciousOperation):
        logging.getLogger(f"django.security.{exc.__class__.__name__}").error(str(exc))
        return Response({"detail": f"The request could not be read: {exc}"}, status=status.HTTP_400_BAD_REQUEST)
    response = drf_exception_handler(exc, context)
    if response is not None or settings.DEBUG or database_unavailable(exc):
        return response  # the database not answering is left to clubsite.kit.middleware's 503
    request = context.get("request")
    logger.error(
        "Internal Server Error: %s",
        getattr(request, "path", "?"),
        exc_info=(type(exc), exc, exc.__traceback__),
        extra={"status_code": 500, "request": getattr(request, "_request", request)},
    )
    set_rollback()
    return Response({"detail": SERVER_ERROR}, status=status.HTTP_500_INTERNAL_SERVER_ERROR)


def _is_api(request) -> bool:
    return request.path.startswith("/api/")


def not_found(request, exception=None):
    """handler404: JSON under /api/, the site's page elsewhere."""
    if _is_api(request):
        return JsonResponse({"detail": "Not found."}, status=404)
    return defaults.page_not_found(request, exception)


def server_error(request):
    """handler500: JSON under /api/, the site's page elsewhere."""
    if _is_api(request):
        return JsonResponse({"detail": SERVER_ERROR}, status=500)
    return defaults.server_error(request)


# --- input every view refuses before it runs -----------------------------------------------------


def nul_fields(data, path: str = "") -> list[str]:
    """Names (dotted paths) of the fields of parsed request data that hold a NUL character."""
    found = []
    if hasattr(data, "lists"):  # QueryDict: form data, query parameters
        for key, values in data.lists():
            if "\x00" in key or any(isinstance(v, str) and "\x00" in v for v in values):
                found.append(f"{path}{key}".replace("\x00", "\\u0000"))
    elif isinstance(data, dict):
        for key, value in data.items():
            name = f"{path}{key}".replace("\x00", "\\u0000")
            if "\x00" in str(key):
                found.append(name)
            else:
                found += nul_fields(value, f"{name}.")
    elif isinstance(data, list):
        for i, value in enumerate(data):
            found += nul_fields(value, f"{path}{i}.")
    elif isinstance(data, str) and "\x00" in data:
        found.append(path.rstrip(".") or "non_field_errors")
    return found


def is_integer_lookup(view) -> bool:
    field = getattr(view, "lookup_field", "pk")
    if field in ("pk", "id"):
        return True
    queryset = getattr(view, "queryset", None)
    model = getattr(queryset, "model", None)
    if model is None:
        return False
    try:
        return isinstance(model._meta.get_field(field), models.IntegerField | models.AutoField)
    except Exception:
        return False


def check_url(view, kwargs) -> None:
    """A 404 for a URL no object can have: NUL anywhere, or an integer id that is not one."""
    if any("\x00" in str(v) for v in kwargs.values()):
        raise NotFound()
    lookup = getattr(view, "lookup_url_kwarg", None) or getattr(view, "lookup_field", None)
    value = kwargs.get(lookup) if lookup else None
    if value is not None and is_integer_lookup(view) and not (_ID.fullmatch(str(value)) and int(value) <= MAX_ID):
        raise NotFound()


def check_input(request) -> None:
    """A 400 naming each query parameter and body field that holds a NUL character."""
    errors = {name: [NUL_MESSAGE] for name in nul_fields(request.query_params)}
    if request.method not in ("GET", "HEAD", "OPTIONS"):
        errors.update({name: [NUL_MESSAGE] for name in nul_fields(request.data)})
    if errors:
        raise ValidationError(errors)


class ApiView:
    # First base of every API view and viewset: refuses impossible URLs and NUL input before the view runs. (A
    # comment, not a docstring: the API's documentation is written from docstrings, see clubsite.kit.schema.)

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        check_url(self, kwargs)
        check_input(request)


def query_int(request, name: str, *, min_value: int = 0, max_value: int = MAX_INT) -> int | None:
    """An optional whole-number query parameter; a 400 naming it when it is not one in range."""
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    if not re.fullmatch(r"-?[0-9]{1,19}", raw) or not min_value <= int(raw) <= max_value:
        raise ValidationError({name: [f"Give a whole number from {min_value} to {max_value}."]})
    return int(raw)


def int_parameter(name: str, description: str = "", *, min_value: int = 0, max_value: int = MAX_INT):
    """The schema of a query parameter read with query_int."""
    schema = {"type": "integer", "minimum": min_value, "maximum": max_value}
    return OpenApiParameter(name, type=schema, description=description)


# --- fields --------------------------------------------------------------------------------------


def Whole(*, min_value: int = 0, max_value: int = MAX_INT, **kwargs) -> serializers.IntegerField:  # noqa: N802
    """An integer field with bounds (the schema documents them; larger numbers are a 400, not an overflow)."""
    return serializers.IntegerField(min_value=min_value, max_value=max_value, **kwargs)


def Id(**kwargs) -> serializers.IntegerField:  # noqa: N802
    """A primary key given in a request body."""
    return Whole(min_value=1, max_value=MAX_ID, **kwargs)


@extend_schema_field({"type": "string", "pattern": r"^\d{2}:\d{2}(:\d{2})?$", "example": "09:30"})
class LocalTimeField(serializers.TimeField):
    """A wall-clock time in the event's own time zone, as HH:MM (OpenAPI's `time` format demands an offset)."""

    context_free = True

    def __init__(self, **kwargs):
        kwargs.setdefault("format", "%H:%M")
        super().__init__(**kwargs)


# Fields whose output depends only on the value (never on the request, the context or the parent serializer).
_CONTEXT_FREE_FIELDS = (
    serializers.BigIntegerField,
    serializers.BooleanField,
    serializers.CharField,
    serializers.ChoiceField,
    serializers.DateField,
    serializers.DateTimeField,
    serializers.DecimalField,
    serializers.DurationField,
    serializers.EmailField,
    serializers.FloatField,
    serializers.IntegerField,
    serializers.JSONField,
    serializers.ModelField,
    serializers.MultipleChoiceField,
    serializers.PrimaryKeyRelatedField,
    serializers.ReadOnlyField,
    serializers.SlugField,
    serializers.SlugRelatedField,
    serializers.StringRelatedField,
    serializers.TimeField,
    serializers.URLField,
    serializers.UUIDField,
)
_PLANS: dict[type, list | None] = {}


def _context_free(field) -> bool:
    return type(field) in _CONTEXT_FREE_FIELDS or getattr(field, "context_free", False)


def _representation_plan(cls) -> list | None:
    """A serializer class's readable fields, built once, as (name, shared field or None, method name or None); None
    when a field may depend on the context (then the class keeps DRF's way)."""
    try:
        fields = cls(context={}).fields.values()
    except TypeError:  # a serializer made with arguments of its own
        return None
    plan = []
    for field in fields:
        if field.write_only:
            continue
        if isinstance(field, serializers.SerializerMethodField):
            plan.append((field.field_name, None, field.method_name))
        elif _context_free(field):
            plan.append((field.field_name, field, None))
        else:
            return None
    return plan


class ModelSerializer(serializers.ModelSerializer):
    # The API's model serializer: local times as HH:MM. (Comments, not a docstring: the API's documentation
    # describes each serializer by its docstring, see clubsite.kit.schema.)
    #
    # Writing an object out skips what DRF does for every serializer it makes: deep-copying the declared fields and
    # building the model's fields anew (most of a one-object response's time). The fields are built once per class
    # and shared, as DRF's own loop uses them, when every readable field is context free (its output depends on the
    # value alone) or a SerializerMethodField (called on this serializer, with its context); any other field (a
    # nested serializer, a hyperlink) and the class keeps DRF's way.

    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.TimeField: LocalTimeField,
    }

    def to_representation(self, instance):
        cls = type(self)
        if cls not in _PLANS:
            _PLANS[cls] = _representation_plan(cls)
        plan = _PLANS[cls]
        if plan is None:
            return super().to_representation(instance)
        result = {}
        # DRF's Serializer.to_representation, on the shared fields.
        for name, field, method in plan:
            if method is not None:
                result[name] = getattr(self, method)(instance)
                continue
            try:
                attribute = field.get_attribute(instance)
            except SkipField:
                continue
            value = attribute.pk if isinstance(attribute, PKOnlyObject) else attribute
            result[name] = None if value is None else field.to_representation(attribute)
        return result


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": MAX_ID})
class IdFilter(filters.Filter):
    """A query parameter filtering by a primary key: a whole number in range, or a 400 naming it."""

    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(*args, **kwargs)


class PageNumberPagination(pagination.PageNumberPagination):
    """Pages of 50, the API's one pagination, as deep as clubsite.kit.paging lets a list go: a page past its first
    MAX_DEPTH rows (page 200 of 50) is refused with a 400 naming `page` and saying to narrow the filters, as is
    `page=last` when the last page lies deeper, and so is a page that is not a number from 1 (Django's paginator
    answered page 0 or "abc" with a 404); a page past the list's last is a 404, no such page. Page numbers rather
    than cursors, so a client still reads a count and jumps to a page; the deepest page has no `next`. The page
    number's bounds are in the schema."""

    django_paginator_class = BoundedPaginator

    def get_page_number(self, request, paginator):
        number = request.query_params.get(self.page_query_param) or 1
        deepest = max_page(paginator.per_page)
        if number in self.last_page_strings and paginator.cut:
            raise ValidationError(
                {self.page_query_param: [f"The last page is deeper than {deepest:,}. {too_deep(paginator.per_page)}"]}
            )
        if number not in self.last_page_strings and not (str(number).isascii() and str(number).isdigit()):
            raise ValidationError({self.page_query_param: [f"A page is a whole number from 1 to {deepest:,}."]})
        if number not in self.last_page_strings and not 1 <= int(number) <= deepest:
            bound = too_deep(paginator.per_page) if int(number) else f"A page is a whole number from 1 to {deepest:,}."
            raise ValidationError({self.page_query_param: [bound]})
        return super().get_page_number(request, paginator)

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_query_param:
                parameter["schema"] = {"type": "integer", "minimum": 1, "maximum": max_page(self.page_size)}
                parameter["description"] = (
                    f"A page number; pages go no deeper than the first {MAX_DEPTH:,} rows: narrow the filters instead."
                )
        return parameters


class EmptySerializer(serializers.Serializer):
    pass

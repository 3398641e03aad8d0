"""The OpenAPI schema builds from every API route without a warning and validates."""

import inspect
import io
import re

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_schema_builds_without_warnings(tmp_path):
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out), stderr=io.StringIO())
    text = out.read_text()
    for path in ("/api/players/", "/api/me/", "/api/events/", "/api/my/entries/", "/api/ratings/", "/api/play/games/"):
        assert f"{path}:" in text, path


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    from drf_spectacular.generators import SchemaGenerator

    with django_db_blocker.unblock():
        return SchemaGenerator().get_schema(request=None, public=True)


def _walk(node, path=""):
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from _walk(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _walk(value, f"{path}/{i}")


def _request_schemas(schema):
    """Schemas of what clients send: query parameters and request bodies (with the components they use)."""
    components = schema["components"]["schemas"]
    for url, operations in schema["paths"].items():
        for method, operation in operations.items():
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "query":
                    yield f"{method} {url} ?{parameter['name']}", parameter["schema"]
            for media in operation.get("requestBody", {}).get("content", {}).values():
                ref = media["schema"].get("$ref", "")
                yield f"{method} {url} body", components.get(ref.rsplit("/", 1)[-1], media["schema"])


def test_every_integer_a_client_sends_has_bounds(schema):
    unbounded = [
        f"{where}{path}"
        for where, node in _request_schemas(schema)
        for path, part in _walk(node)
        if part.get("type") == "integer" and not part.get("readOnly") and not {"minimum", "maximum"} <= set(part)
    ]
    assert unbounded == []


def test_times_are_documented_as_they_are_sent(schema):
    """OpenAPI's `time` format demands a UTC offset; the API sends event-local HH:MM."""
    assert [path for path, part in _walk(schema) if part.get("format") == "time"] == []
    event = schema["components"]["schemas"]["EventDetail"]["properties"]
    assert event["start_time"]["pattern"] and event["start_time"].get("nullable")


def test_optional_relations_are_documented_nullable(schema):
    components = schema["components"]["schemas"]
    for name, field in [("Event", "club"), ("EventDetail", "club"), ("Player", "club"), ("PlayerRating", "club")]:
        assert components[name]["properties"][field].get("nullable"), (name, field)


@pytest.mark.parametrize(
    "url",
    [
        "/api/play/divisions/{id}/rounds/",
        "/api/play/divisions/{id}/standings/",
        "/api/play/rounds/{id}/games/",
        "/api/rating-lists/{slug}/history/{member_number}/",
    ],
)
def test_lists_sent_whole_are_documented_as_arrays(schema, url):
    operation = schema["paths"][url]["get"]
    assert operation["responses"]["200"]["content"]["application/json"]["schema"]["type"] == "array"
    assert "page" not in [p["name"] for p in operation.get("parameters", [])]


def test_every_operation_documents_the_refusals_it_can_answer(schema):
    """A client built from the schema knows the site's refusals: a fuzz of the schema found 289 answers it did not
    document (400, 401, 403 and 404 everywhere, 202 from a rating run). Every operation documents 400, 401 and 403;
    one whose path names an object, or that pages a list, documents 404; each refusal's body is a Refusal."""
    missing = []
    for url, operations in schema["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            paged = any(p["name"] == "page" for p in operation.get("parameters", []))
            wanted = {"400", "401", "403"} | ({"404"} if "{" in url or paged else set())
            missing += [f"{method.upper()} {url}: {code}" for code in sorted(wanted - set(responses))]
            for code in wanted & set(responses):
                body = responses[code]["content"]["application/json"]["schema"]
                assert body == {"$ref": "#/components/schemas/Refusal"}, f"{method} {url} {code}"
    assert missing == []
    assert schema["components"]["schemas"]["Refusal"]["type"] == "object"
    rate = schema["paths"]["/api/rating-runs/"]["post"]["responses"]
    assert "202" in rate and "201" not in rate  # a run is queued, not made there and then
    assert "429" in schema["paths"]["/api/auth/token/"]["post"]["responses"]


def _api_views():
    """The view class of every URL pattern under /api/, with the viewset actions it maps, if any."""
    from django.urls import URLPattern, URLResolver, get_resolver

    def walk(patterns, prefix):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern) and (prefix + str(pattern.pattern)).startswith("api/"):
                view = getattr(pattern.callback, "cls", None)
                if view is not None:
                    yield view, getattr(pattern.callback, "actions", None) or {}

    return list(walk(get_resolver().url_patterns, ""))


def _docs_of(objects) -> set[str]:
    return {inspect.cleandoc(o.__doc__) for o in objects if getattr(o, "__doc__", None)}


def _site_serializers():
    from rest_framework.serializers import BaseSerializer

    found, waiting = set(), [BaseSerializer]
    while waiting:
        for cls in waiting.pop().__subclasses__():
            if cls not in found:
                found.add(cls)
                waiting.append(cls)
    apps = {"clubsite", "players", "events", "money", "ratings", "wordjudge"}
    return [cls for cls in found if cls.__module__.split(".")[0] in apps]


def test_no_endpoint_is_described_by_a_base_class(schema):
    """A description says what the endpoint does for a client, never what a base class of the code is for."""
    views = _api_views()
    bases = _docs_of(base for view, _ in views for base in view.__mro__[1:])
    described = {
        f"{method.upper()} {url}": operation.get("description", "")
        for url, operations in schema["paths"].items()
        for method, operation in operations.items()
    }
    assert [where for where, text in described.items() if text in bases] == []
    assert [where for where, text in described.items() if not text.strip()] == []


def test_no_schema_of_the_api_is_described_by_a_base_class(schema):
    components = schema["components"]["schemas"]
    checked, inherited = 0, []
    for cls in _site_serializers():
        part = components.get(cls.__name__.removesuffix("Serializer"))
        if part is None:
            continue
        checked += 1
        if part.get("description") in _docs_of(cls.__mro__[1:]):
            inherited.append(cls.__name__)
    assert checked > 20 and inherited == []


def test_an_action_a_viewset_adds_is_described_by_itself_not_by_the_viewset(schema):
    """POST /api/my/entries/{id}/withdraw/ says what withdrawing does, not what the list of entries is."""
    views = _api_views()
    standard = {"list", "retrieve", "create", "update", "partial_update", "destroy"}
    added = {}  # the URL's end → the docstring of the viewset that adds it
    for view, actions in views:
        for name in set(actions.values()) - standard:
            method = getattr(view, name)
            if getattr(method, "url_path", None):  # a method mapped onto another action's address has its own doc
                path = re.sub(r"\(\?P<(\w+)>[^)]*\)", r"{\1}", method.url_path)
                added[("}/" if method.detail else "/") + path + "/"] = inspect.getdoc(view)
    assert len(added) > 20, "the API's own actions are found"
    described = [
        (f"{method.upper()} {url}", operation.get("description", ""), doc)
        for url, operations in schema["paths"].items()
        for method, operation in operations.items()
        for end, doc in added.items()
        if url.endswith(end)
    ]
    assert len(described) >= len(added)
    assert [where for where, text, doc in described if not text or text == doc] == []

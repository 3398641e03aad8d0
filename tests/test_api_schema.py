"""The OpenAPI schema builds from every API route without a warning and validates."""

import io

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_schema_builds_without_warnings(tmp_path):
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out), stderr=io.StringIO())
    text = out.read_text()
    for path in ("/api/players/", "/api/me/", "/api/events/", "/api/my/entries/", "/api/ratings/", "/api/play/games/"):
        assert f"{path}:" in text, path

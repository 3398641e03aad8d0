import pytest


@pytest.mark.django_db
def test_base_layout_serves_bootstrap_locally_with_navigation(client):
    html = client.get("/").content.decode()
    for label in ("Events", "Ratings", "Members", "Log in"):
        assert label in html
    assert "/static/bootstrap/css/bootstrap.min.css" in html and "cdn" not in html.lower()
    assert 'name="viewport"' in html


def test_bootstrap_is_installed_as_a_package():
    from django.contrib.staticfiles import finders

    assert finders.find("bootstrap/css/bootstrap.min.css")
    assert finders.find("bootstrap/js/bootstrap.bundle.min.js")

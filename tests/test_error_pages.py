"""Refusals and missing pages are pages of the site (its menu, words a person can act on), not the server's
bare text."""

import pytest
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_missing_page_is_a_page_of_the_site(client):
    response = client.get("/no/such/page/")
    page = response.content.decode()
    assert response.status_code == 404
    assert "There is no page at this address." in page and 'class="navbar' in page


def test_a_missing_payment_says_what_is_missing(client):
    client.force_login(UserFactory())
    response = client.get(reverse("money:pay", args=["E000999X"]))
    assert response.status_code == 404 and "No amount due has this reference." in response.content.decode()


def test_a_refusal_is_a_page_of_the_site_with_its_reason(client):
    user = UserFactory()
    client.force_login(user)
    response = client.get(reverse("money:treasurer"))
    page = response.content.decode()
    assert response.status_code == 403
    assert "This is not yours to see or change" in page and 'class="navbar' in page

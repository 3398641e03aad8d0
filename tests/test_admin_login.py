"""The admin has no log-in of its own: staff log in on the site's page, which applies the account policy."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_admin_log_in_sends_to_the_sites_log_in_page(client):
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    assert "next=" in response["Location"]


def test_a_password_posted_to_the_admin_log_in_is_not_checked_there(client, django_user_model):
    django_user_model.objects.create_user("boss", "boss@example.org", "pw-12345-long", is_staff=True)
    response = client.post("/admin/login/", {"username": "boss", "password": "pw-12345-long"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))
    assert "_auth_user_id" not in client.session

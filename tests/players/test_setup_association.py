"""`manage.py setup_association`: a real association's first run, without demo data, safe to repeat."""

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from players.models import Association, User
from ratings.models import RatingList
from tests.events.factories import fast_passwords  # noqa: F401

pytestmark = pytest.mark.django_db


def setup(*args):
    out = StringIO()
    call_command("setup_association", *args, stdout=out)
    return out.getvalue()


def test_a_fresh_site_gets_its_association_rating_list_and_admin(client):
    out = setup("--name", "Scrabble Association (Singapore)", "--admin-email", "chair@example.org")
    association = Association.objects.get()
    assert (association.name, association.short_name, association.slug) == (
        "Scrabble Association (Singapore)",
        "SA",
        "sa",
    )
    (rating_list,) = RatingList.objects.all()
    assert rating_list.association == association and rating_list.slug == "sa-csw"
    assert rating_list.lexicon == "CSW24" and rating_list.system == "naspa"
    password = re.search(r"\n    (\S+)\n", out).group(1)  # printed once
    admin = User.objects.get(email="chair@example.org")
    assert admin.is_staff and admin.is_superuser and admin.emailaddress_set.get().verified
    assert client.login(email="chair@example.org", password=password)
    assert client.get("/admin/").status_code == 200
    assert User.objects.count() == 1  # no demo accounts, no demo members


def test_running_it_again_changes_nothing(client):
    args = ["--name", "Malaysian Scrabble Association", "--short-name", "MSA", "--admin-email", "a@example.org"]
    args += ["--admin-password", "a-long-chosen-password", "--lexicon", "CSW24", "--lexicon", "NWL23"]
    first = setup(*args)
    assert "a-long-chosen-password" not in first  # a chosen password is never printed
    again = setup(*args)
    assert "Kept the association" in again and "Kept the account a@example.org" in again
    assert "shown once" not in again
    assert Association.objects.count() == 1 and User.objects.count() == 1
    assert sorted(RatingList.objects.values_list("slug", flat=True)) == ["msa-csw", "msa-nwl"]
    assert client.login(email="a@example.org", password="a-long-chosen-password")


def test_the_association_is_there_for_a_tsh_import():
    """tsh_import files imported events under the first association; a fresh site had none."""
    setup("--name", "Scrabble Association", "--admin-email", "a@example.org", "--admin-password", "pw-123456789")
    assert Association.objects.order_by("pk").first().slug == "sa"


def test_refuses_an_address_that_is_not_one():
    with pytest.raises(CommandError, match="not an email address"):
        setup("--name", "X Association", "--admin-email", "nobody")

"""Staff have an admin page, with search, for every model of the site."""

import pytest
from django.apps import apps
from django.contrib import admin
from django.urls import reverse

MODELS = [
    m for app in ("players", "rulebooks", "events", "ratings", "clubs") for m in apps.get_app_config(app).get_models()
]
# Edited inside their category, entry or association.
INLINE_ONLY = {"Fee", "Prize", "Payment", "MembershipOffer", "Answer"}


def test_every_model_has_an_admin():
    missing = [m.__name__ for m in MODELS if m not in admin.site._registry and m.__name__ not in INLINE_ONLY]
    assert missing == []


@pytest.mark.django_db
@pytest.mark.parametrize("model", [m for m in MODELS if m in admin.site._registry], ids=lambda m: m.__name__)
def test_admin_changelist_opens_and_searches(admin_client, model):
    url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
    assert admin_client.get(url).status_code == 200
    if admin.site._registry[model].search_fields:
        assert admin_client.get(url, {"q": "x"}).status_code == 200


def test_every_model_is_named_in_good_english_in_the_admin():
    """No "Snapshot entrys": a plural that is not the singular plus "s" is written down on the model."""
    from django.apps import apps

    odd = [
        f"{model._meta.app_label}.{model.__name__}: {model._meta.verbose_name_plural}"
        for model in apps.get_models()
        if str(model._meta.verbose_name_plural).endswith(("ys", "ss", "sss"))
        and not str(model._meta.verbose_name_plural).endswith(("days", "keys", "plays"))
    ]
    assert odd == []


def test_every_inline_is_bounded():
    """Every inline builds at most MAX_INLINE_ROWS rows (fees and prizes, as many as a category may have): Django's
    own built up to 2,000 for a crafted row count."""
    from clubsite.kit.admin import TabularInline

    unbounded = [
        f"{model.__name__}: {inline.__name__}"
        for model, model_admin in admin.site._registry.items()
        for inline in model_admin.inlines
        if not issubclass(inline, TabularInline)
    ]
    assert unbounded == []


@pytest.mark.django_db
def test_a_crafted_row_count_builds_no_new_inline_rows_and_is_refused(admin_client, django_assert_max_num_queries):
    """A row count over the bound is refused, with Django's own message, before any row is built: building the
    bound's 80 rows and checking each against the database's constraints made 365 queries, over a second."""
    from events.forms import MAX_FEES, MAX_PRIZES
    from tests.events.factories import EventFactory

    huge = "99999999999999999999999"
    data = {"event": EventFactory().pk, "name": "Open", "position": 0}
    for prefix in ("fees", "prizes"):
        data |= {f"{prefix}-TOTAL_FORMS": huge, f"{prefix}-INITIAL_FORMS": "0"}
    with django_assert_max_num_queries(20):
        response = admin_client.post(reverse("admin:events_category_add"), data)
    assert response.status_code == 200
    formsets = response.context["inline_admin_formsets"]
    assert [len(formset.formset.forms) for formset in formsets] == [0, 0]
    assert [formset.formset.non_form_errors() for formset in formsets] == [
        [f"Please submit at most {MAX_FEES} forms."],
        [f"Please submit at most {MAX_PRIZES} forms."],
    ]


@pytest.mark.django_db
def test_rows_within_the_bound_are_all_read(admin_client):
    from events.models import Category
    from tests.events.factories import EventFactory

    data = {"event": EventFactory().pk, "name": "Open", "position": 0}
    data |= {"fees-TOTAL_FORMS": "2", "fees-INITIAL_FORMS": "0", "prizes-TOTAL_FORMS": "0", "prizes-INITIAL_FORMS": "0"}
    for i, amount in enumerate(["30", "15"]):
        data |= {f"fees-{i}-name": f"Fee {i}", f"fees-{i}-amount": amount, f"fees-{i}-position": i}
    response = admin_client.post(reverse("admin:events_category_add"), data)
    assert response.status_code == 302, response.context["inline_admin_formsets"][0].formset.errors
    assert sorted(str(fee.amount) for fee in Category.objects.get(name="Open").fees.all()) == ["15.00", "30.00"]


@pytest.mark.django_db
def test_every_json_field_of_the_admin_is_read_by_the_toolkits_field(rf):
    from django import forms

    from clubsite.kit.admin import JSONFormField
    from tests.factories import UserFactory

    request = rf.get("/")
    request.user = UserFactory(is_staff=True, is_superuser=True)
    fields = {
        f"{model.__name__}.{name}": type(field)
        for model, model_admin in admin.site._registry.items()
        for name, field in model_admin.get_form(request).base_fields.items()
        if isinstance(field, forms.JSONField)
    }
    assert "Event.payment_methods" in fields and "RatingList.settings" in fields
    assert {name for name, kind in fields.items() if kind is not JSONFormField} == set()


@pytest.mark.django_db
def test_json_nested_too_deeply_is_refused_beside_the_field(admin_client):
    """6,000 nested brackets once made Django's JSON field raise RecursionError: a server error."""
    from tests.factories import AssociationFactory

    nested = "[" * 6000 + "]" * 6000
    data = {"association": AssociationFactory().pk, "name": "Ratings", "slug": "ratings", "settings": nested}
    response = admin_client.post(reverse("admin:ratings_ratinglist_add"), data)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["settings"] == ["Enter a valid JSON."]

"""The association (the tenant) money is kept for, named by its model label (settings.ASSOCIATION_MODEL), so
money imports no app below it to name whose receipts, settings and statements these are."""

from django.apps import apps
from django.conf import settings


def association_model():
    """The association's model class (players.Association)."""
    return apps.get_model(settings.ASSOCIATION_MODEL)

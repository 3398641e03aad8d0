from django.apps import AppConfig


class KitConfig(AppConfig):
    """The toolkit every app uses. An app only for its one table, the named sequences (`sequences.py`)."""

    name = "clubsite.kit"
    label = "kit"
    verbose_name = "Site toolkit"

from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = "Members"

    def ready(self):
        from . import signals  # noqa: F401

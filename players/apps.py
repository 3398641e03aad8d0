from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = "Members"

    def ready(self):
        from money.payables import register

        from . import signals  # noqa: F401
        from .payables import RENEWAL

        register(RENEWAL)

from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = "Members"

    def ready(self):
        from django.contrib.auth import get_user_model
        from django.db.models.signals import m2m_changed

        from clubsite.kit.roles import forget_menu
        from money.payables import register

        from . import signals  # noqa: F401

        m2m_changed.connect(forget_menu, sender=get_user_model().groups.through, dispatch_uid="forget_menu")
        from .payables import RENEWAL

        register(RENEWAL)

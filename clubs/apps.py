from django.apps import AppConfig


class ClubsConfig(AppConfig):
    name = "clubs"
    verbose_name = "Club life"

    def ready(self):
        from money.payables import register

        from .payables import SESSION_FEE

        register(SESSION_FEE)

from django.apps import AppConfig


class MoneyConfig(AppConfig):
    name = "money"
    verbose_name = "Money"

    def ready(self):
        from .providers import register
        from .providers.card import Card

        register(Card())  # offered only when the Stripe keys are set (Card.available)

        from .services import statement_matching  # noqa: F401  (its task, for the worker to know)

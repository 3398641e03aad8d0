from django.apps import AppConfig


class PlayConfig(AppConfig):
    """Tournament play: divisions, rounds, games, standings, prizes, the venue and tsh files. Inside events
    because it plays an event's entrants; an app of its own (label `play`) because registration does not
    need it. Its tables kept the names they had when play was part of events."""

    name = "events.play"
    label = "play"
    verbose_name = "Tournament play"

    def account_page_context(self, request, player):
        from .views import my_division_context

        return {"account_sections": ["events/play/_my_division.html"], **my_division_context(player)}

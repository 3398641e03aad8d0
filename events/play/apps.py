from django.apps import AppConfig


class PlayConfig(AppConfig):
    """Tournament play: divisions, rounds, games, standings, prizes, the venue and tsh files. Inside events
    because it plays an event's entrants; an app of its own (label `play`) because registration does not
    need it. Its tables kept the names they had when play was part of events."""

    name = "events.play"
    label = "play"
    verbose_name = "Tournament play"

    def ready(self):
        from django.db.models.signals import m2m_changed, post_delete, post_save

        from events.models import Event

        from .models import Division, DivisionPlayer, Game, Round
        from .services import polls

        for model in (Division, DivisionPlayer, Game, Round):
            post_save.connect(polls.forget_division, sender=model, dispatch_uid=f"polls.{model.__name__}.save")
            post_delete.connect(polls.forget_division, sender=model, dispatch_uid=f"polls.{model.__name__}.delete")
        post_save.connect(polls.forget_event, sender=Event, dispatch_uid="polls.event.save")
        post_delete.connect(polls.forget_event, sender=Event, dispatch_uid="polls.event.delete")
        m2m_changed.connect(polls.forget_event, sender=Event.directors.through, dispatch_uid="polls.directors")

    def account_page_context(self, request, player):
        from .views import my_division_context

        return {"account_sections": ["events/play/_my_division.html"], **my_division_context(player)}

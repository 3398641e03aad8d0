from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"

    def ready(self):
        from celery.signals import worker_process_init

        from . import receivers  # noqa: F401  (connects to what events announce)

        worker_process_init.connect(_warm_up_engine, weak=False)

    def player_page_context(self, player):
        """The player's ratings on every list (one query); the chart is an image of its own."""
        from .models import PlayerRating

        rows = list(
            PlayerRating.objects.filter(player=player, rating__gt=0)
            .select_related("rating_list")
            .order_by("rating_list__position", "rating_list__name")
        )
        return {"player_sections": ["ratings/_player_ratings.html"], "player_ratings": rows}

    def home_page_context(self, request):
        """The top ten active players of the first list."""
        from players.visibility import with_profile_visible

        from . import services

        rating_list = services.default_list()
        top = []
        if rating_list:
            rows = with_profile_visible(services.rated_players(rating_list), request.user)
            top = services.rank_players(rating_list, rows[:10])
        return {"home_sections": ["ratings/_home_top.html"], "ratings_top_list": rating_list, "ratings_top": top}

    def member_import_rating_lists(self):
        """The lists a members import may put its members' ratings on (players.memberimport), (id, name)."""
        from .services import lists_open_to_seeding

        return {"rating_lists": lists_open_to_seeding()}

    def load_demo(self, stdout):
        """A rating list seeded from a ratings file, three past rated events, a monthly snapshot."""
        from . import demo

        demo.load(stdout)


def _warm_up_engine(**kwargs):
    """A worker loads the engine's compiled loops as it starts, so its first rating run does not wait
    for them."""
    from .engine.kernels import warm_up

    warm_up()

from csp.decorators import csp_exempt
from django.contrib import admin
from django.contrib.auth.decorators import login_required
from django.urls import include, path
from django.utils.decorators import method_decorator
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.routers import APIRootView, DefaultRouter

from clubsite import help_pages, views
from clubsite.kit import health
from clubsite.kit.api import ApiView
from events import api as events_api
from events.play import api as play_api
from events.play import venue_api
from money import api as money_api
from players import api as players_api
from ratings import api as ratings_api


class RootView(ApiView, APIRootView):
    """The API's lists, each by its address."""


class SchemaView(ApiView, SpectacularAPIView):
    """This API's OpenAPI 3 schema: every endpoint, its parameters and what it answers (YAML, or JSON with
    `?format=json`)."""


@method_decorator(csp_exempt(), name="dispatch")
class DocsView(ApiView, SpectacularSwaggerView):
    """This API's documentation, to read and try in a browser."""

    # Swagger UI starts itself with an inline script, so its page alone goes without the CSP.


# Staff log in through the site's own log-in page, which applies the account policy (a confirmed address, the
# lockout per account and per client); Django's admin form would skip both.
admin.site.login = login_required(admin.site.login)

router = DefaultRouter()
router.APIRootView = RootView
router.register("players", players_api.PlayerViewSet, basename="player")
router.register("clubs", players_api.ClubViewSet, basename="club")
router.register("my/renewals", players_api.MyRenewalViewSet, basename="my-renewal")
router.register("membership-types", players_api.MembershipOfferViewSet, basename="membership-type")

events_api.register(router)
play_api.register(router)
venue_api.register(router)
ratings_api.register(router)
money_api.register(router)

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("help/<slug:slug>/", help_pages.help_page, name="help"),
    path("accounts/", include("allauth.urls")),
    path("members/", include("players.urls")),
    path("members/", include("events.play.history_urls")),
    path("rules/", include("rulebooks.urls")),
    path("events/", include("events.urls")),
    path("ratings/", include("ratings.urls")),
    path("judge/", include("wordjudge.urls")),
    path("money/", include("money.urls")),
    path("clubs/", include("clubs.urls")),
    path("admin/", admin.site.urls),
    path("api/me/", players_api.MeView.as_view(), name="api-me"),
    path("api/auth/token/", players_api.TokenView.as_view(), name="api-token"),
    path("api/schema/", SchemaView.as_view(), name="schema"),
    path("api/docs/", DocsView.as_view(url_name="schema"), name="api-docs"),
    path("api/", include(router.urls)),
]

# Under /api/ errors answer JSON; elsewhere the site's pages.
handler404 = "clubsite.kit.api.not_found"
handler500 = "clubsite.kit.middleware.server_error"  # a 503 while the database does not answer

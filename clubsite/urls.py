from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.routers import APIRootView, DefaultRouter

from events import api as events_api
from players import api as players_api
from ratings import api as ratings_api

from . import views
from .api import ApiView


class RootView(ApiView, APIRootView):
    pass


class SchemaView(ApiView, SpectacularAPIView):
    pass


class DocsView(ApiView, SpectacularSwaggerView):
    pass


router = DefaultRouter()
router.APIRootView = RootView
router.register("players", players_api.PlayerViewSet, basename="player")
router.register("clubs", players_api.ClubViewSet, basename="club")

events_api.register(router)
ratings_api.register(router)

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/", include("allauth.urls")),
    path("members/", include("players.urls")),
    path("events/", include("events.urls")),
    path("ratings/", include("ratings.urls")),
    path("judge/", include("wordjudge.urls")),
    path("admin/", admin.site.urls),
    path("api/me/", players_api.MeView.as_view(), name="api-me"),
    path("api/auth/token/", players_api.TokenView.as_view(), name="api-token"),
    path("api/schema/", SchemaView.as_view(), name="schema"),
    path("api/docs/", DocsView.as_view(url_name="schema"), name="api-docs"),
    path("api/", include(router.urls)),
]

# Under /api/ errors answer JSON; elsewhere the site's pages.
handler404 = "clubsite.api.not_found"
handler500 = "clubsite.api.server_error"

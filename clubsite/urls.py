from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.authtoken.views import obtain_auth_token
from rest_framework.routers import DefaultRouter

from events import api as events_api
from players import api as players_api
from ratings import api as ratings_api

from . import health, views

router = DefaultRouter()
router.register("players", players_api.PlayerViewSet, basename="player")
router.register("clubs", players_api.ClubViewSet, basename="club")

events_api.register(router)
ratings_api.register(router)

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("accounts/", include("allauth.urls")),
    path("members/", include("players.urls")),
    path("events/", include("events.urls")),
    path("ratings/", include("ratings.urls")),
    path("admin/", admin.site.urls),
    path("api/me/", players_api.MeView.as_view(), name="api-me"),
    path("api/auth/token/", obtain_auth_token, name="api-token"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/", include(router.urls)),
]

from django.urls import path

from . import play_urls
from .views import door, manage, public

app_name = "clubs"
urlpatterns = [
    path("", public.club_list, name="list"),
    path("<slug:slug>/", public.club_detail, name="detail"),
    path("<slug:slug>/edit/", manage.edit_page, name="edit"),
    path("<slug:slug>/nights/", manage.manage, name="manage"),
    path("<slug:slug>/series/<int:pk>/off/", manage.night_off, name="night_off"),
    path("<slug:slug>/takings/", manage.takings, name="takings"),
    path("<slug:slug>/officers/", manage.officers, name="officers"),
    path("<slug:slug>/officers/<int:pk>/remove/", manage.officer_remove, name="officer_remove"),
    path("<slug:slug>/nights/<int:pk>/", public.night_detail, name="night"),
    path("<slug:slug>/nights/<int:pk>/rsvp/", public.rsvp, name="rsvp"),
    path("<slug:slug>/nights/<int:pk>/door/", door.door, name="door"),
    path("<slug:slug>/nights/<int:pk>/door/check-in/", door.check_in, name="check_in"),
    path("<slug:slug>/nights/<int:pk>/door/guest/", door.guest, name="guest"),
    path("<slug:slug>/nights/<int:pk>/door/fee/<int:attendance>/", door.fee, name="fee"),
    *play_urls.urlpatterns,  # games, tables, the ladder, club tournaments
]

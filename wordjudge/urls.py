from django.urls import path

from . import views

app_name = "wordjudge"
urlpatterns = [
    path("lexicons/", views.lexicons, name="lexicons"),
    path("events/<slug:slug>/", views.director, name="director"),
    path("events/<slug:slug>/open/", views.open_judge, name="open"),
    path("events/<slug:slug>/close/", views.close_judge, name="close"),
    path("t/<str:token>/", views.tablet, name="tablet"),
]

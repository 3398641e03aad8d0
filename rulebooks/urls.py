from django.urls import path

from . import views

app_name = "rulebooks"
urlpatterns = [
    path("", views.book_list, name="list"),
    path("club/<slug:club_slug>/new/", views.club_book_new, name="club_new"),
    path("<slug:slug>/", views.book, name="book"),
    path("<slug:slug>/version/<int:version>/", views.version, name="version"),
    path("<slug:slug>/publish/", views.publish, name="publish"),
]

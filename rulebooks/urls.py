from django.urls import path

from . import views

app_name = "rulebooks"
urlpatterns = [
    path("", views.book_list, name="list"),
    path("<slug:slug>/", views.book, name="book"),
    path("<slug:slug>/version/<int:version>/", views.version, name="version"),
    path("<slug:slug>/publish/", views.publish, name="publish"),
]

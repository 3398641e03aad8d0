"""The addresses of play at club nights, included in the club's own (clubs.urls, namespace clubs)."""

from django.urls import path

from . import play_views as views

urlpatterns = [
    path("<slug:slug>/nights/<int:pk>/games/", views.night_play, name="night_play"),
    path("<slug:slug>/nights/<int:pk>/tables/new/", views.table_new, name="table_new"),
    path("<slug:slug>/nights/<int:pk>/table-sheet/", views.table_sheet, name="table_sheet"),
    path("<slug:slug>/games/<int:pk>/confirm/", views.game_confirm, name="game_confirm"),
    path("<slug:slug>/games/<int:pk>/dispute/", views.game_dispute, name="game_dispute"),
    path("<slug:slug>/games/<int:pk>/remove/", views.game_remove, name="game_remove"),
    path("<slug:slug>/tables/<int:pk>/remove/", views.table_remove, name="table_remove"),
    path("<slug:slug>/ladder/", views.ladder, name="ladder"),
    path("<slug:slug>/ladder/points/", views.play_rules, name="play_rules"),
    path("<slug:slug>/tournaments/new/", views.tournament_new, name="tournament_new"),
]

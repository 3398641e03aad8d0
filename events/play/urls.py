"""Running a tournament, under /events/<slug>/play/ (names in the events namespace, prefixed play_)."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.hub, name="play_hub"),
    path("my-game/", views.my_game, name="play_my_game"),
    path("games/<int:game_pk>/submit/", views.submit, name="play_submit"),
    path("games/<int:game_pk>/confirm/", views.confirm, name="play_confirm"),
    path("games/<int:game_pk>/dispute/", views.dispute, name="play_dispute"),
    path("games/<int:game_pk>/result/", views.game_result, name="play_game_result"),
    path("games/<int:game_pk>/director-confirm/", views.director_confirm, name="play_director_confirm"),
    path("divisions/", views.divisions, name="play_divisions"),
    path("divisions/assign/", views.assign, name="play_assign"),
    path("divisions/band/", views.save_band, name="play_save_band"),
    path("divisions/place/", views.place, name="play_place"),
    path("divisions/publish/", views.publish_assignments, name="play_publish_assignments"),
    path("divisions/play-up/", views.play_up, name="play_play_up"),
    path("divisions/<int:pk>/prizes/", views.link_prizes, name="play_link_prizes"),
    path("division/<int:pk>/", views.division, name="play_division"),
    path("division/<int:pk>/pair/", views.pair, name="play_pair"),
    path("division/<int:pk>/round/<int:number>/", views.round_page, name="play_round"),
    path("division/<int:pk>/round/<int:number>/swap/", views.swap, name="play_swap"),
    path("division/<int:pk>/round/<int:number>/publish/", views.publish, name="play_publish"),
    path("division/<int:pk>/round/<int:number>/delete/", views.delete_draft, name="play_delete_draft"),
    path("division/<int:pk>/round/<int:number>/results/", views.fast_entry, name="play_fast_entry"),
    path("division/<int:pk>/standings/", views.standings, name="play_standings"),
    path("division/<int:pk>/cross-table/", views.cross_table, name="play_cross_table"),
    path("division/<int:pk>/scorecards/", views.scorecards, name="play_scorecards"),
    path("division/<int:pk>/scorecards/<int:number>/", views.scorecard, name="play_scorecard"),
    path("division/<int:pk>/prizes/", views.prizes, name="play_prizes"),
    path("division/<int:pk>/finalise/", views.finalise, name="play_finalise"),
    path("division/<int:pk>/withdraw/<int:number>/", views.withdraw, name="play_withdraw"),
    path("division/<int:pk>/late-entrant/", views.late_entrant, name="play_late_entrant"),
    path("division/<int:pk>/division.t", views.download_t, name="play_download_t"),
    path("config.tsh", views.download_config, name="play_download_config"),
    path("tsh-archive.txt", views.download_archive, name="play_download_archive"),
]

"""A player's games across events, under /members/<member number>/ (names in the history namespace)."""

from django.urls import path

from .views import history

app_name = "history"
urlpatterns = [
    path("<int:member_number>/games/", history.player_games, name="games"),
    path("<int:member_number>/head-to-head/", history.head_to_head, name="head_to_head"),
    path("<int:member_number>/head-to-head/<int:opponent_number>/", history.head_to_head, name="versus"),
    path("<int:member_number>/records/", history.player_records, name="records"),
]

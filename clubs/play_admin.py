"""Staff read club play here: games, tables and ratings change only through the club's pages and services (which
keep the ladder and the club rating list equal to a recomputation), so nothing is added or edited here."""

from django.contrib import admin

from clubsite.kit.admin import ReadOnlyAdmin

from .models import ClubGame, ClubPlayRules, ClubRating, ClubTable, TableSeat


@admin.register(ClubPlayRules)
class ClubPlayRulesAdmin(ReadOnlyAdmin):
    list_display = ["club", "season_starts_on", "win_points", "first_points", "attendance_points", "rated"]
    search_fields = ["club__name"]


@admin.register(ClubGame)
class ClubGameAdmin(ReadOnlyAdmin):
    list_display = ["night", "player_a", "score_a", "score_b", "player_b", "status"]
    list_filter = ["status"]
    search_fields = ["player_a__full_name", "player_b__full_name", "night__club__name"]
    list_select_related = ["night", "player_a", "player_b"]


@admin.register(TableSeat)
class TableSeatAdmin(ReadOnlyAdmin):
    list_display = ["table", "seat", "player", "score_before", "tiles_left", "final", "place"]
    search_fields = ["player__full_name", "table__night__club__name"]
    list_select_related = ["table", "player"]


@admin.register(ClubTable)
class ClubTableAdmin(ReadOnlyAdmin):
    list_display = ["night", "number", "went_out"]
    search_fields = ["night__club__name"]
    list_select_related = ["night", "went_out"]


@admin.register(ClubRating)
class ClubRatingAdmin(ReadOnlyAdmin):
    list_display = ["club", "player", "rating", "games", "last_played"]
    search_fields = ["club__name", "player__full_name"]
    list_select_related = ["club", "player"]

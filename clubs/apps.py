from django.apps import AppConfig


class ClubsConfig(AppConfig):
    name = "clubs"
    verbose_name = "Club life"

    def ready(self):
        from money.payables import register

        from .payables import SESSION_FEE

        register(SESSION_FEE)

    def player_page_context(self, player):
        """The member's club and its next night, their place on its ladder and their club rating, on their page."""
        from django.utils import timezone

        from .models import AttendanceStatus, ClubNight, NightStatus
        from .services.standings import player_standing

        if not player.club_id:
            return {}
        today = timezone.localdate()
        next_night = (
            ClubNight.objects.filter(club_id=player.club_id, on__gte=today, status=NightStatus.SCHEDULED)
            .order_by("on", "pk")
            .first()
        )
        nights_came = player.club_attendances.filter(status=AttendanceStatus.CHECKED_IN).count()
        return {
            "player_sections": ["clubs/_player_club.html", "clubs/play/_player_standing.html"],
            "player_club_next_night": next_night,
            "player_club_nights_came": nights_came,
            "club_standing": player_standing(player),
        }

    def account_page_context(self, request, player):
        """My account: the member's coming club nights and what they answered, and the clubs they are an officer of."""
        from django.utils import timezone

        from players.models import Club

        from .models import Attendance, ClubNight, NightStatus
        from .permissions import clubs_run_by

        nights = []
        if player.club_id:
            nights = list(
                ClubNight.objects.filter(club_id=player.club_id, on__gte=timezone.localdate())
                .exclude(status=NightStatus.CANCELLED)
                .select_related("club")
                .order_by("on", "pk")[:3]
            )
            answers = dict(
                Attendance.objects.filter(player=player, night__in=[n.pk for n in nights]).values_list(
                    "night_id", "status"
                )
            )
            for night in nights:
                night.my_status = answers.get(night.pk, "")
        offices = list(Club.objects.filter(pk__in=clubs_run_by(request.user)).order_by("name"))
        return {
            "account_sections": ["clubs/_account_clubs.html"],
            "my_club_nights": nights,
            "my_club_offices": offices,
        }

    def load_demo(self, stdout):
        """Demo club life (after the members' demo)."""
        from . import demo, play_demo

        demo.load(stdout)
        play_demo.load(stdout)

    def club_page_context(self, request, club):
        """The top of the club's ladder (with club ratings) on its page."""
        from .services.standings import club_ladder

        return {"club_sections": ["clubs/play/_club_ladder.html"], "club_ladder_top": club_ladder(club).lines[:10]}

    def club_night_context(self, request, night):
        """How many games and tables a night has, and the way to them."""
        return {
            "club_night_sections": ["clubs/play/_night_games.html"],
            "night_games_count": night.games.count(),
            "night_tables_count": night.tables.count(),
        }

    def directs_club(self, user, club):
        """Events asks whether `user` directs `club` (a club director may announce their club's events)."""
        from .permissions import may_run_club

        return {"directs_club": [may_run_club(user, club)]}

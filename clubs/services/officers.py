"""A club's officers and its page."""

from django.core.exceptions import ValidationError
from django.db import transaction

from clubsite.kit.errors import NotAllowed
from clubsite.kit.text import NOTE_TEXT, check_free_text

from ..models import ClubPage, Officer, OfficerRole
from ..permissions import may_keep_page
from .common import ClubError, require_director

PAGE_FIELDS = ("venue", "address", "map_url", "contact_email", "contact_phone", "about")


@transaction.atomic
def appoint_officer(actor, club, player, role: str) -> Officer:
    """`player` takes `role` in `club` (the club director or staff appoint)."""
    require_director(actor, club)
    if role not in OfficerRole.values:
        raise ClubError("Choose the office: club director, secretary or treasurer.", field="role")
    if player is None:
        raise ClubError("Choose the member who takes the office.", field="player")
    if player.club_id != club.pk:
        raise ClubError(
            f"{player.name} is not a member of {club.name}: only its members hold its offices.", field="player"
        )
    officer, made = Officer.objects.get_or_create(club=club, player=player, role=role)
    if not made:
        raise ClubError(f"{player.name} is {OfficerRole(role).label.lower()} of {club.name} already.", field="player")
    return officer


@transaction.atomic
def remove_officer(actor, officer: Officer) -> None:
    club = officer.club
    require_director(actor, club)
    if officer.role == OfficerRole.DIRECTOR:
        directors = Officer.objects.select_for_update().filter(club=club, role=OfficerRole.DIRECTOR)
        if len(list(directors)) == 1 and not getattr(actor, "is_staff", False):
            raise ClubError(
                f"{club.name} would have no club director: appoint another first (or ask association staff)."
            )
    officer.delete()


@transaction.atomic
def update_page(actor, club, **fields) -> ClubPage:
    """The club's page as its director or secretary writes it."""
    if not may_keep_page(actor, club):
        raise NotAllowed(f"Only the club director or secretary of {club.name} or association staff can do this.")
    page, _ = ClubPage.objects.select_for_update().get_or_create(club=club)
    for name in PAGE_FIELDS:
        if name in fields:
            value = (fields[name] or "").strip()
            limit = ClubPage._meta.get_field(name).max_length or NOTE_TEXT
            setattr(page, name, check_free_text(value, name.replace("_", " "), limit, ClubError, name))
    if page.map_url and not page.map_url.lower().startswith(("https://", "http://")):
        raise ClubError("A map link starts with https://.", field="map_url")
    try:
        page.full_clean(exclude=["club"])
    except ValidationError as error:
        field, messages = next(iter(error.message_dict.items()))
        raise ClubError(messages[0], field=field) from None
    page.save()
    return page

"""Who may enter which category: school level, age on the day, rating band. One rule for every door:
entering oneself, a group entry, the API, an organiser moving an entry, and changing a student's name."""

from datetime import date

from players.models import Player, SchoolLevel

from ..models import Category, Event, EventKind, SchoolLevelRequirement
from .places import player_ratings

# The ages school students have in the year of the event (the age they turn that year). In Singapore
# a child starts Primary 1 the year they turn 7 and Secondary 1 the year they turn 13; Secondary 5
# ends the year they turn 17. One year either side allows for an early start or a repeated year.
SCHOOL_AGES = {
    SchoolLevel.PRIMARY: (6, 13),
    SchoolLevel.SECONDARY: (12, 18),
}
STUDENT_AGES = (SCHOOL_AGES[SchoolLevel.PRIMARY][0], SCHOOL_AGES[SchoolLevel.SECONDARY][1])


def school_ages(required: str) -> tuple[int, int] | None:
    """The ages (turned in the event's year) a category for this school level means, or None."""
    if required == SchoolLevelRequirement.STUDENT:
        return STUDENT_AGES
    return SCHOOL_AGES.get(required)


def _students(required: str) -> str:
    if required == SchoolLevelRequirement.STUDENT:
        return "school students"
    return f"{dict(SchoolLevel.choices)[required].lower()} school students"


def club_refusal(event: Event, player: Player | None) -> str | None:
    """A club tournament for its members only: why this player may not enter (None: they may). A person without a
    record yet is nobody's member."""
    if not (event.club_members_only and event.club_id):
        return None
    if player is not None and player.club_id == event.club_id:
        return None
    return f"{event.title} is for members of {event.club.name} only."


def category_refusal(
    category: Category,
    player: Player | None,
    *,
    school_level: str | None = None,
    date_of_birth: date | None = None,
    rating: int | None = None,
    on_day: date | None = None,
    for_self: bool = True,
) -> str | None:
    """Why this player may not enter this category, or None when they may.

    `school_level` is a level declared on the entry by the adult entering the student; it stands in
    for a record with no level, but never for a date of birth: a student entered by someone else
    (`for_self=False`) into a category with a school level or an age limit needs a date of birth,
    and the date of birth must fit the ages that school level means (see SCHOOL_AGES).
    """
    if refusal := club_refusal(category.event, player):
        return refusal
    where = "in My account" if for_self else "on the entry"
    level = school_level or (player.school_level if player else SchoolLevel.NONE)
    required = category.school_level
    labels = dict(SchoolLevel.choices)
    if required:
        if required == SchoolLevelRequirement.STUDENT:
            if level not in (SchoolLevel.PRIMARY, SchoolLevel.SECONDARY):
                return f"{category.name} is for school students; give the school level {where}."
        elif level != required:
            if level == SchoolLevel.NONE:
                return (
                    f"{category.name} is for {labels[required].lower()} school students; give the school level {where}."
                )
            return f"{category.name} is for {labels[required].lower()} school students, not {labels[level].lower()}."
    born = (player.date_of_birth if player else None) or date_of_birth
    day = on_day or category.event.starts_on
    has_age_limit = category.min_age is not None or category.max_age is not None
    if born is None and has_age_limit:
        return f"{category.name} has an age limit; give the date of birth {where}."
    if born is None and required and not for_self:
        return f"{category.name} is for {_students(required)}; give the date of birth {where}."
    if born is not None and has_age_limit:
        age = day.year - born.year - ((day.month, day.day) < (born.month, born.day))
        if category.min_age is not None and age < category.min_age:
            return f"{category.name} is for players aged {category.min_age} or over on the day (age {age})."
        if category.max_age is not None and age > category.max_age:
            return f"{category.name} is for players aged {category.max_age} or under on the day (age {age})."
    elif born is not None and required:
        youngest, oldest = school_ages(required)
        turning = day.year - born.year
        if not youngest <= turning <= oldest:
            return (
                f"{category.name} is for {_students(required)}, who are {youngest} to {oldest} in {day.year} "
                f"(born {day.year - oldest}–{day.year - youngest}); born in {born.year} is outside it."
            )
    if category.min_rating is not None and (rating is None or rating < category.min_rating):
        shown = "unrated" if rating is None else f"rated {rating}"
        return f"{category.name} is for players rated {category.min_rating} or more ({shown})."
    if category.max_rating is not None and rating is not None and rating > category.max_rating:
        return f"{category.name} is for players rated {category.max_rating} or less (rated {rating})."
    return None


def refusal_for(category: Category, player: Player, *, for_self: bool, **declared) -> str | None:
    """The rule with the player's rating on the event's list looked up (what every service calls)."""
    rating = player_ratings(category.event, [player.pk]).get(player.pk)
    return category_refusal(category, player, rating=rating, for_self=for_self, **declared)


def categories_for(event: Event, player: Player | None) -> list[tuple[Category, str | None]]:
    """Each category of the event with the reason this player may not enter it (None: eligible)."""
    categories = list(event.categories.all())
    rating = player_ratings(event, [player.pk]).get(player.pk) if player else None
    return [(c, category_refusal(c, player, rating=rating) if player else None) for c in categories]


# What a record may lack that a category's rule asks for, as the profile form names its fields.
FACTS = {"school_level": "school level", "date_of_birth": "date of birth"}


def missing_facts(category: Category, player: Player) -> tuple[str, ...]:
    """The facts of a player's own record that this category's rule needs and the record lacks (category_refusal,
    entering oneself): the school level for a category by school level (a record says "not at school" until the
    member says otherwise, so it is asked of anyone whose date of birth does not rule school out), the date of
    birth for an age limit."""
    needed = []
    if category.school_level and player.school_level == SchoolLevel.NONE:
        born, ages = player.date_of_birth, school_ages(category.school_level)
        if born is None or ages[0] <= category.event.starts_on.year - born.year <= ages[1]:
            needed.append("school_level")
    if player.date_of_birth is None and (category.min_age is not None or category.max_age is not None):
        needed.append("date_of_birth")
    return tuple(needed)


def facts_needed(eligibility: list[tuple[Category, str | None]], player: Player) -> tuple[list[str], list[Category]]:
    """Of the categories `player` may not enter (categories_for), those a missing fact of their record refuses, and
    the facts, in the profile form's order: what the event and entry pages ask the player to fill in."""
    facts, categories = set(), []
    for category, reason in eligibility:
        missing = missing_facts(category, player) if reason else ()
        if missing:
            facts.update(missing)
            categories.append(category)
    return [fact for fact in FACTS if fact in facts], categories


def declared_level(category: Category, player: Player) -> str | None:
    """In a group entry the adult declares the school level the category asks for, unless the record says otherwise.

    The declared level never overrides a date of birth: category_refusal still checks it."""
    if (
        category.school_level in (SchoolLevel.PRIMARY, SchoolLevel.SECONDARY)
        and player.school_level == SchoolLevel.NONE
    ):
        return category.school_level
    if category.school_level == SchoolLevelRequirement.STUDENT and player.school_level == SchoolLevel.NONE:
        return SchoolLevel.PRIMARY
    return None


def is_for_students(event: Event) -> bool:
    """Whether the group entry form (teacher, parent or guardian) belongs on this event."""
    if event.kind == EventKind.STUDENTS:
        return True
    return any(c.school_level for c in event.categories.all())

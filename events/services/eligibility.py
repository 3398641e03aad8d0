"""Who may enter which category: school level, age on the day, rating band. One rule for every door."""

from datetime import date

from players.models import Player, SchoolLevel

from ..models import Category, Event, SchoolLevelRequirement
from .places import player_ratings


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
    """Why this player may not enter this category, or None when they may."""
    where = "in My account" if for_self else "on the entry"
    level = school_level or (player.school_level if player else SchoolLevel.NONE)
    required = category.school_level
    if required:
        labels = dict(SchoolLevel.choices)
        if required == SchoolLevelRequirement.STUDENT:
            if level not in (SchoolLevel.PRIMARY, SchoolLevel.SECONDARY):
                return f"{category.name} is for school students; give the school level {where}."
        elif level != required:
            if level == SchoolLevel.NONE:
                return (
                    f"{category.name} is for {labels[required].lower()} school students; give the school level {where}."
                )
            return f"{category.name} is for {labels[required].lower()} school students, not {labels[level].lower()}."
    if category.min_age is not None or category.max_age is not None:
        born = date_of_birth or (player.date_of_birth if player else None)
        if born is None:
            return f"{category.name} has an age limit; give the date of birth {where}."
        day = on_day or category.event.starts_on
        age = day.year - born.year - ((day.month, day.day) < (born.month, born.day))
        if category.min_age is not None and age < category.min_age:
            return f"{category.name} is for players aged {category.min_age} or over on the day (age {age})."
        if category.max_age is not None and age > category.max_age:
            return f"{category.name} is for players aged {category.max_age} or under on the day (age {age})."
    if category.min_rating is not None and (rating is None or rating < category.min_rating):
        shown = "unrated" if rating is None else f"rated {rating}"
        return f"{category.name} is for players rated {category.min_rating} or more ({shown})."
    if category.max_rating is not None and rating is not None and rating > category.max_rating:
        return f"{category.name} is for players rated {category.max_rating} or less (rated {rating})."
    return None


def categories_for(event: Event, player: Player | None) -> list[tuple[Category, str | None]]:
    """Each category of the event with the reason this player may not enter it (None: eligible)."""
    categories = list(event.categories.all())
    rating = player_ratings(event, [player.pk]).get(player.pk) if player else None
    return [(c, category_refusal(c, player, rating=rating) if player else None) for c in categories]


def declared_level(category: Category, player: Player) -> str | None:
    """In a group entry the adult declares the school level the category asks for, unless the record says otherwise."""
    if (
        category.school_level in (SchoolLevel.PRIMARY, SchoolLevel.SECONDARY)
        and player.school_level == SchoolLevel.NONE
    ):
        return category.school_level
    if category.school_level == SchoolLevelRequirement.STUDENT and player.school_level == SchoolLevel.NONE:
        return SchoolLevel.PRIMARY
    return None

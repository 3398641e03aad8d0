"""Statuses move only along the transitions their model writes down (a `TRANSITIONS` dict next to it)."""

from clubsite.kit.errors import ServiceError


class TransitionRefused(ServiceError):
    """A status change the model's TRANSITIONS do not allow."""


def move(obj, target: str, *, field: str = "status") -> None:
    """Sets `obj.<field>` to `target`, refusing a change its model's TRANSITIONS do not list.

    A new, unsaved object takes its first status freely. The caller saves."""
    current = getattr(obj, field)
    if not obj._state.adding and target not in type(obj).TRANSITIONS.get(current, ()):
        labels = dict(obj._meta.get_field(field).choices)
        now_is = str(labels.get(current, current)).lower()
        article = "An" if now_is[:1] in "aeiou" else "A"
        raise TransitionRefused(
            f"{article} {now_is} {obj._meta.verbose_name} cannot become {str(labels.get(target, target)).lower()}."
        )
    setattr(obj, field, target)

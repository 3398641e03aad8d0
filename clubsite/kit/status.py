"""Statuses move only along the transitions their model writes down (a `TRANSITIONS` dict next to it).

`move` moves one object (the caller saves it); `move_all` moves the rows of a queryset in one UPDATE.
Nothing else writes a status: tests/test_status_moves.py looks through the code for any other write."""

from clubsite.kit.errors import ServiceError


class TransitionRefused(ServiceError):
    """A status change the model's TRANSITIONS do not allow."""


def _refused(model, field: str, current: str, target: str) -> TransitionRefused:
    labels = dict(model._meta.get_field(field).choices)
    now_is = str(labels.get(current, current)).lower()
    article = "An" if now_is[:1] in "aeiou" else "A"
    return TransitionRefused(
        f"{article} {now_is} {model._meta.verbose_name} cannot become {str(labels.get(target, target)).lower()}."
    )


def can_move(obj, target: str, *, field: str = "status") -> bool:
    """Whether `obj` may move to `target`: a new, unsaved object takes any first status."""
    return obj._state.adding or target in type(obj).TRANSITIONS.get(getattr(obj, field), ())


def move(obj, target: str, *, field: str = "status") -> None:
    """Sets `obj.<field>` to `target`, refusing a change its model's TRANSITIONS do not list.

    A new, unsaved object takes its first status freely. The caller saves."""
    if not can_move(obj, target, field=field):
        raise _refused(type(obj), field, getattr(obj, field), target)
    setattr(obj, field, target)


def move_all(queryset, target: str, *, field: str = "status", only_movable: bool = False, **values) -> int:
    """Moves the rows of `queryset` to `target` in one UPDATE, along its model's TRANSITIONS, setting the
    other fields in `values` with it. Returns the number of rows moved.

    By default a row whose status cannot become `target` refuses the whole move (TransitionRefused,
    nothing written). With `only_movable=True` such rows are left as they are and the others move: "fail
    every run still queued or running" reads as one call.

    The UPDATE itself is limited to the statuses allowed to move, so a row changed by another transaction
    between the check and the write is never moved along a transition the model does not list; a caller
    that needs all or nothing locks the rows first (`select_for_update`)."""
    model = queryset.model
    movable = [status for status, targets in model.TRANSITIONS.items() if target in targets]
    if not only_movable:
        stuck = queryset.exclude(**{f"{field}__in": movable}).values_list(field, flat=True)[:1]
        for current in stuck:
            raise _refused(model, field, current, target)
    return queryset.filter(**{f"{field}__in": movable}).update(**{field: target}, **values)

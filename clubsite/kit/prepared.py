"""Queries compiled once per database connection, then run with new values.

Django builds and compiles a queryset to SQL on every use. For the short queries of a busy request (a
registration is a handful of one-row SELECTs) that was more than half of the request's Python. A `Prepared` query
is still written with the ORM, as a function of its values:

    EVENT_BY_SLUG = Prepared(lambda slug: Event.objects.filter(slug=slug).order_by(), str)
    event = EVENT_BY_SLUG.get(slug)

On its first use on a connection it is built with stand-in values and compiled, and the places of the
stand-ins among the statement's parameters are kept. Each later use puts the values in those places, runs the
same SQL, and turns the rows into model instances (or values() rows) as the queryset itself would.

Only a query whose SQL does not depend on its values can be prepared. It is built and compiled twice with
different stand-ins, and refused at once (PreparedQueryError) unless both compile to the same statement, every
stand-in is a parameter as given (not transformed by the lookup, as `__contains` or a range check would) and
every other parameter is the same in both. Values are coerced as the ORM's integer and text fields coerce them
(int(), str()); None is refused, since the ORM would have written IS NULL instead.

It relies on Django's compiler as QuerySet's own iterables use it (`as_sql`, `select`, `klass_info`,
`annotation_col_map`, `col_count`, `has_extra_select`, `get_converters`, `apply_converters`,
`composite_fields_to_tuples`, `get_related_populators`): internals, checked against Django 5.2.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.core.exceptions import EmptyResultSet
from django.db import DEFAULT_DB_ALIAS, connections, router
from django.db.models import QuerySet
from django.db.models.query import (
    FlatValuesListIterable,
    ModelIterable,
    ValuesIterable,
    ValuesListIterable,
    get_related_populators,
)
from django.db.transaction import TransactionManagementError

# Stand-ins nobody writes as a constant: integers inside every integer column's range but the small ones, and
# text starting with a NUL character (PostgreSQL stores no NUL: these are compiled, never sent).
_STAND_INS = {
    int: lambda variant, index: 2_061_000_001 + variant * 100_000 + index,
    str: lambda variant, index: f"\x00stand-in-{variant}-{index}",
}
_ROW_SHAPES = {
    ModelIterable: "models",
    ValuesIterable: "dicts",
    ValuesListIterable: "tuples",
    FlatValuesListIterable: "flat",
}


class PreparedQueryError(Exception):
    """A query that cannot be prepared: its SQL depends on its values, or the helper cannot read its rows."""


@dataclass
class _Compiled:
    """One connection's compiled statement and what turns its rows into results."""

    sql: str
    params: tuple
    slots: tuple  # (position in params, index of the value), for each place a value goes
    compiler: object
    shape: str
    converters: dict
    composite: bool
    trim: int | None  # rows are cut to this many columns (ORDER BY columns the select carries)
    db: str
    # Model rows:
    model: type | None = None
    init_list: list | None = None
    fields_slice: slice | None = None
    related_populators: list | None = None
    annotation_col_map: dict | None = None
    # values() rows:
    names: list | None = None


class Prepared:
    """A query built by `build(*values)` (a QuerySet), compiled once per connection; `kinds`: each value's type,
    int or str."""

    def __init__(self, build: Callable[..., QuerySet], *kinds: type):
        for kind in kinds:
            if kind not in _STAND_INS:
                raise TypeError(f"Prepared values are int or str, not {kind!r}.")
        self.build = build
        self.kinds = kinds
        self._route = None  # (model, for_write, alias given, for_update), read from a first build

    def __repr__(self) -> str:
        name = getattr(self.build, "__qualname__", repr(self.build))
        return f"Prepared({name}, {', '.join(k.__name__ for k in self.kinds)})"

    # Results

    def rows(self, *values, using: str | None = None) -> list:
        """Every row, as the queryset would give them: model instances, dicts, tuples or flat values."""
        return self._run(values, using)

    def first(self, *values, using: str | None = None):
        """The first row, or None. The query is not limited here: order and slice it ([:1]) as QuerySet.first()
        would, unless it selects by something unique."""
        rows = self._run(values, using)
        return rows[0] if rows else None

    def get(self, *values, using: str | None = None):
        """The one row, raising the model's DoesNotExist or MultipleObjectsReturned as QuerySet.get() does.
        QuerySet.get() also drops the ordering (and reads 21 rows at most): for a unique lookup, write .order_by()."""
        rows = self._run(values, using)
        if len(rows) == 1:
            return rows[0]
        model = self._routing()[0]
        if not rows:
            raise model.DoesNotExist(f"{model._meta.object_name} matching query does not exist.")
        raise model.MultipleObjectsReturned(
            f"get() returned more than one {model._meta.object_name} -- it returned {len(rows)}!"
        )

    # Running

    def _routing(self) -> tuple:
        """(model, for_write, alias given, for_update), read from a first build (the same for any values)."""
        if self._route is None:
            queryset = self.build(*self._stand_ins(0))
            self._route = (queryset.model, queryset._for_write, queryset._db, queryset.query.select_for_update)
        return self._route

    def _run(self, values: tuple, using: str | None) -> list:
        if len(values) != len(self.kinds):
            raise TypeError(f"{self!r} takes {len(self.kinds)} values, not {len(values)}.")
        model, for_write, given, for_update = self._routing()
        alias = using or given or (router.db_for_write if for_write else router.db_for_read)(model) or DEFAULT_DB_ALIAS
        connection = connections[alias]
        # As the compiler refuses it, before anything is compiled: FOR UPDATE outside a transaction locks nothing.
        if (
            for_update
            and connection.features.has_select_for_update
            and connection.get_autocommit()
            and connection.features.supports_transactions
        ):
            raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
        # A connection is used by one thread at a time, so its cache needs no lock.
        cache = connection.__dict__.setdefault("clubsite_prepared", {})
        compiled = cache.get(self)
        if compiled is None:
            compiled = cache[self] = self._compile(alias)
        params = list(compiled.params)
        for position, index in compiled.slots:
            params[position] = self._coerce(index, values[index])
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            rows = cursor.fetchall()
        return self._results(compiled, rows) if rows else []

    def _coerce(self, index: int, value):
        if value is None:
            raise ValueError(f"{self!r}: value {index} is None (the ORM would have written IS NULL).")
        kind = self.kinds[index]
        return value if type(value) is kind else kind(value)

    @staticmethod
    def _results(compiled: _Compiled, rows: list) -> list:
        compiler = compiled.compiler
        if compiled.trim is not None:
            rows = [row[: compiled.trim] for row in rows]
        if compiled.converters:
            rows = compiler.apply_converters(rows, compiled.converters)
        if compiled.composite:
            rows = compiler.composite_fields_to_tuples(rows, [s[0] for s in compiler.select[: compiler.col_count]])
        shape = compiled.shape
        if shape == "tuples":
            return [tuple(row) for row in rows]
        if shape == "flat":
            return [row[0] for row in rows]
        if shape == "dicts":
            names = compiled.names
            return [dict(zip(names, row, strict=False)) for row in rows]
        # As ModelIterable builds them.
        results = []
        model, db, init_list, fields = compiled.model, compiled.db, compiled.init_list, compiled.fields_slice
        populators, annotations = compiled.related_populators, compiled.annotation_col_map
        for row in rows:
            obj = model.from_db(db, init_list, row[fields])
            for populator in populators:
                populator.populate(row, obj)
            if annotations:
                for name, position in annotations.items():
                    setattr(obj, name, row[position])
            results.append(obj)
        return results

    # Compiling

    def _stand_ins(self, variant: int) -> tuple:
        return tuple(_STAND_INS[kind](variant, index) for index, kind in enumerate(self.kinds))

    def _compile_with(self, stand_ins: tuple, alias: str):
        queryset = self.build(*stand_ins)
        if not isinstance(queryset, QuerySet):
            raise PreparedQueryError(f"{self!r}: build() must return a QuerySet, not {type(queryset).__name__}.")
        if queryset._iterable_class not in _ROW_SHAPES:
            raise PreparedQueryError(f"{self!r}: rows of {queryset._iterable_class.__name__} are not supported.")
        if queryset._prefetch_related_lookups or queryset._known_related_objects:
            raise PreparedQueryError(f"{self!r}: prefetch_related and related managers' querysets are not supported.")
        queryset = queryset.using(alias)
        compiler = queryset.query.get_compiler(using=alias)
        try:
            sql, params = compiler.as_sql()
        except EmptyResultSet:
            raise PreparedQueryError(
                f"{self!r}: with stand-ins {stand_ins!r} the query matches nothing, so it has no SQL (a value out of "
                "a small field's range, or an empty list)."
            ) from None
        return queryset, compiler, sql, tuple(params)

    def _compile(self, alias: str) -> _Compiled:
        queryset, compiler, sql, params = self._compile_with(self._stand_ins(0), alias)
        *_, other_sql, other_params = self._compile_with(self._stand_ins(1), alias)
        if sql != other_sql or len(params) != len(other_params):
            raise PreparedQueryError(f"{self!r}: the SQL depends on the values, so it cannot be prepared.")
        slots = []
        for index, (stand_in, other) in enumerate(zip(self._stand_ins(0), self._stand_ins(1), strict=True)):
            places = [p for p, value in enumerate(params) if type(value) is type(stand_in) and value == stand_in]
            other_places = [p for p, value in enumerate(other_params) if type(value) is type(other) and value == other]
            if not places:
                transformed = isinstance(stand_in, str) and any(isinstance(v, str) and stand_in in v for v in params)
                why = "a lookup transformed it" if transformed else "build() does not use it, or a lookup changed it"
                raise PreparedQueryError(
                    f"{self!r}: value {index}'s stand-in {stand_in!r} is not among the query's parameters ({why})."
                )
            if places != other_places:
                raise PreparedQueryError(f"{self!r}: value {index} goes to different parameters with other values.")
            slots += [(place, index) for place in places]
        placed = {place for place, _ in slots}
        for place, (value, other) in enumerate(zip(params, other_params, strict=True)):
            if place not in placed and (type(value) is not type(other) or value != other):
                raise PreparedQueryError(f"{self!r}: parameter {place} depends on the values in a way not prepared.")
        fields = [s[0] for s in compiler.select[: compiler.col_count]]
        compiled = _Compiled(
            sql=sql,
            params=params,
            slots=tuple(sorted(slots)),
            compiler=compiler,
            shape=_ROW_SHAPES[queryset._iterable_class],
            converters=compiler.get_converters(fields),
            composite=compiler.has_composite_fields(fields),
            trim=compiler.col_count if compiler.has_extra_select else None,
            db=alias,
        )
        query = queryset.query
        if compiled.shape == "models":
            klass_info, select = compiler.klass_info, compiler.select
            start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
            compiled.model = klass_info["model"]
            compiled.init_list = [f[0].target.attname for f in select[start:end]]
            compiled.fields_slice = slice(start, end)
            compiled.related_populators = get_related_populators(klass_info, select, alias)
            compiled.annotation_col_map = compiler.annotation_col_map
        elif compiled.shape == "dicts":
            selected = query.selected
            compiled.names = (
                list(selected) if selected else [*query.extra_select, *query.values_select, *query.annotation_select]
            )
        return compiled

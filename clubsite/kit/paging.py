"""How deep a list may be paged: one bound for the API and the site's pages.

A page is read with OFFSET, so the database walks every row before it: page 15,000 of 800,000 games took 1.7 s
however small the page. No list is paged past its first MAX_DEPTH rows; what lies further is reached by narrowing
the list with its filters (a player, an event, a season), which also finds it sooner. Counts stay true: a list says
how many rows it has, and that only the first MAX_DEPTH can be paged through.

- The API (clubsite.kit.api.PageNumberPagination) refuses a deeper `page` with a 400 naming it.
- A page of the site (`BoundedPaginator`, in place of Django's Paginator) shows its deepest page instead, as Django
  shows the last page for any page past the end, and `cut` tells the template to say the list goes on.
"""

from math import ceil

from django.core.paginator import Paginator
from django.utils.functional import cached_property

MAX_DEPTH = 10_000  # rows a list may be paged through


def max_page(per_page: int) -> int:
    """The deepest page of `per_page` rows a list may show."""
    return max(1, MAX_DEPTH // max(1, per_page))


def too_deep(per_page: int) -> str:
    """Why a deeper page is refused, for a person."""
    return (
        f"Pages go no deeper than {max_page(per_page):,} (the first {MAX_DEPTH:,} rows): narrow the list with its "
        "filters to reach the rows after them."
    )


class BoundedPaginator(Paginator):
    """Django's Paginator, with no page past `max_page`: asking for one gives the deepest page (get_page) or
    EmptyPage (page), as past the last page. `count` is the list's true length; `cut` says rows go on past the
    last page shown."""

    @cached_property
    def all_pages(self) -> int:
        """The pages the whole list would fill (Django's num_pages)."""
        if self.count == 0 and not self.allow_empty_first_page:
            return 0
        return ceil(max(1, self.count - self.orphans) / self.per_page)

    @cached_property
    def num_pages(self) -> int:
        return min(self.all_pages, max_page(self.per_page))

    @property
    def cut(self) -> bool:
        return self.all_pages > self.num_pages

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from events.play.core.pairing.matching import min_cost_perfect_matching


def perfect_matchings(items: list[int]):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for k, other in enumerate(rest):
        for tail in perfect_matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, other), *tail]


def total(pairs, cost) -> tuple[int, ...]:
    sums = [0] * len(cost[pairs[0]]) if pairs else []
    for p in pairs:
        for k, x in enumerate(cost[p]):
            sums[k] += x
    return tuple(sums)


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from([2, 4, 6, 8]).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(
                st.tuples(st.integers(0, 2), st.integers(0, 30)), min_size=n * (n - 1) // 2, max_size=n * (n - 1) // 2
            ),
        )
    )
)
def test_matches_brute_force_lexicographic_optimum(case) -> None:
    n, values = case
    cost = dict(zip(combinations(range(n), 2), values, strict=True))
    found = min_cost_perfect_matching(n, lambda i, j: cost[i, j])
    assert sorted(x for p in found for x in p) == list(range(n))
    best = min(total(m, cost) for m in perfect_matchings(list(range(n))))
    assert total(found, cost) == best


def test_empty_and_odd() -> None:
    assert min_cost_perfect_matching(0, lambda i, j: (0,)) == []
    try:
        min_cost_perfect_matching(3, lambda i, j: (0,))
    except ValueError as e:
        assert "even" in str(e)
    else:  # pragma: no cover
        raise AssertionError("odd count accepted")

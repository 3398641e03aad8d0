"""Minimum-cost perfect matching with lexicographic costs.

Each possible pair gets a tuple of costs, most important first. The matching
minimises the sum of the first component, then of the second, and so on.
The tuples are folded into one integer weight per edge with multipliers large
enough that no total of a lower level can outweigh one unit of a higher level,
then solved exactly by Edmonds' blossom algorithm (rustworkx, which accepts
128-bit weights, so the folding never overflows for fields of any real size).
"""

from __future__ import annotations

import operator
from collections.abc import Callable

import rustworkx as rx

__all__ = ["min_cost_perfect_matching"]

# rustworkx keeps weights as signed 128-bit integers.
_WEIGHT_LIMIT = 2**126


def min_cost_perfect_matching(n: int, cost: Callable[[int, int], tuple[int, ...]]) -> list[tuple[int, int]]:
    """Pair 0..n-1 (n even) minimising the summed `cost(i, j)` (i < j) lexicographically.

    Costs must be non-negative. Returns pairs (i, j) with i < j, sorted.
    """
    if n % 2:
        raise ValueError("a perfect matching needs an even number of players")
    if n == 0:
        return []
    ends = [(i, j) for i in range(n) for j in range(i + 1, n)]
    costs = [cost(i, j) for i, j in ends]
    columns = list(zip(*costs, strict=True))
    if any(min(column) < 0 for column in columns):
        raise ValueError("pairing costs cannot be negative")
    multipliers = [0] * len(columns)
    scale = 1
    for k in reversed(range(len(columns))):
        multipliers[k] = scale
        # A whole matching has n/2 pairs, so n/2 * max bounds the level's total.
        scale *= max(columns[k]) * (n // 2) + 1
    if scale >= _WEIGHT_LIMIT:
        raise ValueError("pairing costs too large to combine")
    graph: rx.PyGraph = rx.PyGraph()
    graph.add_nodes_from(range(n))
    # Maximum weight over maximum-cardinality matchings: weight = scale - cost
    # stays positive, and every perfect matching has n/2 edges, so the
    # heaviest one is the cheapest.
    weights = [scale - sum(map(operator.mul, c, multipliers)) for c in costs]
    graph.add_edges_from([(i, j, w) for (i, j), w in zip(ends, weights, strict=True)])
    matched = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=_identity)
    pairs = sorted((min(a, b), max(a, b)) for a, b in matched)
    if len(pairs) * 2 != n:
        raise RuntimeError("matching is not perfect on a complete graph")
    return pairs


def _identity(weight: int) -> int:
    return weight

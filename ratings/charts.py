"""Rating history charts, drawn on the server as SVG (pygal, no scripts fetched from anywhere)."""

from __future__ import annotations

from datetime import date

import pygal
from pygal.style import Style

STYLE = Style(
    background="white",
    plot_background="white",
    foreground="#212529",
    foreground_strong="#212529",
    foreground_subtle="#6c757d",
    colors=("#198754", "#0d6efd"),
    font_family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
    label_font_size=12,
    major_label_font_size=12,
    title_font_size=16,
)


def rating_history_svg(title: str, points: list[tuple[date, int]], width: int = 800, height: int = 320) -> str:
    """A line of the rating after each rated event (and the starting rating, when known)."""
    chart = pygal.DateLine(
        title=title,
        width=width,
        height=height,
        style=STYLE,
        show_legend=False,
        dots_size=3,
        x_label_rotation=0,
        truncate_label=-1,
        x_value_formatter=lambda d: d.strftime("%b %Y"),
        # No tooltip script from a CDN; the chart is an image.
        js=[],
        disable_xml_declaration=False,
        no_data_text="No rated games yet",
        show_x_guides=False,
        explicit_size=True,
        stroke_style={"width": 2},
    )
    if points:
        values = [r for _, r in points]
        low, high = min(values), max(values)
        margin = max(25, (high - low) // 10)
        chart.range = (max(0, low - margin), high + margin)
        chart.x_labels = month_labels(min(d for d, _ in points), max(d for d, _ in points))
    chart.add("Rating", points)
    return chart.render(is_unicode=True)


def month_labels(first: date, last: date, most: int = 8) -> list[date]:
    """First days of months spanning first..last, at most `most` of them, evenly spaced."""
    start = first.year * 12 + first.month - 1
    end = last.year * 12 + last.month  # the month after the last point
    step = max(1, -(-(end - start) // (most - 1)))
    return [date(m // 12, m % 12 + 1, 1) for m in range(start, end + 1, step)]

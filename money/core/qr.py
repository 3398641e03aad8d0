"""QR codes for payloads (PayNow's among them): an SVG to inline in a page and a PNG to download.

Error correction M (kept at M, not raised: the same payload always gives the same code) and the quiet
zone of 4 modules the QR standard asks for; banking apps read such codes reliably from a screen.
"""

from __future__ import annotations

import io

import segno

BORDER = 4
SVG_TARGET_PX = 240


def _code(payload: str) -> segno.QRCode:
    if not isinstance(payload, str) or not payload:
        raise ValueError("payload: empty")
    return segno.make(payload, error="m", micro=False, boost_error=False)


def qr_svg(payload: str, *, title: str = "") -> str:
    """An <svg> element (no XML declaration, no namespace: for inlining in HTML) about 240 px wide,
    with role="img" and, when given, a <title> for screen readers."""
    code = _code(payload)
    width, _ = code.symbol_size(border=BORDER)
    scale = max(1, round(SVG_TARGET_PX / width))
    svg = code.svg_inline(scale=scale, border=BORDER, title=title or None)
    return svg.replace("<svg ", '<svg role="img" ', 1)


def qr_png(payload: str, scale: int = 8) -> bytes:
    """The code as PNG bytes, `scale` pixels a module."""
    if isinstance(scale, bool) or not isinstance(scale, int) or scale < 1:
        raise ValueError("scale: a whole number of pixels, at least 1")
    out = io.BytesIO()
    _code(payload).save(out, kind="png", scale=scale, border=BORDER)
    return out.getvalue()

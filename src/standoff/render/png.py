"""SVG to PNG with resvg (a well-kept Rust rasteriser, MIT/Apache, bundled in
the ``resvg-py`` wheel: no system libraries needed, unlike Cairo)."""

from __future__ import annotations

from standoff import StandoffError


def render_png(svg: str, width: int | None = None) -> bytes:
    """PNG bytes of an SVG document, ``width`` pixels wide (default: its own size)."""
    if width is not None and not 1 <= width <= 20000:
        raise StandoffError(f"a picture is 1 to 20000 pixels wide, not {width}")
    try:
        import resvg_py
    except ImportError as exc:  # the extra is not installed
        raise StandoffError("PNG output needs the 'png' extra: "
                            "pip install 'standoff[png]'") from exc
    try:
        return bytes(resvg_py.svg_to_bytes(svg_string=svg, width=width))
    except ValueError as exc:
        raise StandoffError(f"cannot rasterise the picture: {exc}") from exc

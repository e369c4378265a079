"""Pictures of the board: SVG for every variant, PNG through resvg, an HTML viewer.

An adapter around the rules core, like the CLI: nothing in the core imports it.
``render_svg(position, orders=..., results=...)`` draws one phase;
``render_png(svg)`` rasterises it; ``game_viewer(game)`` is a single HTML file
that steps through a whole game.
"""

from __future__ import annotations

from .html import game_viewer, phase_pictures
from .layout import Layout, layout_for, layout_of
from .png import render_png
from .svg import power_colours, render_svg

__all__ = ["Layout", "game_viewer", "layout_for", "layout_of", "phase_pictures", "power_colours",
           "render_png", "render_svg"]

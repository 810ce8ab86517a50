"""One figure style for print, one way to save a figure, and one code for a strategy's cells.

Why: the figures go into papers.  A figure must read at a journal's column width (3.5 in)
or across a page (7 in) without scaling its text down, come as a vector (``.svg``, ``.pdf``)
or at the resolution asked for (``--dpi``), and carry where it comes from (its provenance,
:mod:`~shipcaptaincrew.provenance`).  And the strategy heat maps must speak one language: one
colour scale for "stand on a cargo of at least T" from :data:`LOWEST_CARGO` to
:data:`HIGHEST_CARGO`, and one code -- the colour :data:`NEVER_COLOUR` and the mark
:data:`NEVER_MARK` -- for a cell where the plan never stands (always rerolls).

Every function that draws calls :func:`pyplot` (matplotlib, headless, the style applied) and
ends with :func:`save`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..provenance import FIGURE_SUFFIXES, figure_metadata

__all__ = [
    "COLUMN",
    "DEFAULT_DPI",
    "HIGHEST_CARGO",
    "LOWEST_CARGO",
    "NEVER",
    "NEVER_COLOUR",
    "NEVER_MARK",
    "PAGE",
    "STYLE",
    "THRESHOLD_LABEL",
    "check_figure",
    "cell_text_colour",
    "pyplot",
    "save",
    "threshold_bar",
    "threshold_colours",
    "threshold_map",
]

#: Figure widths in inches: a column of a two-column paper, and the whole page.
COLUMN = 3.5
PAGE = 7.16
#: The resolution of a PNG unless ``--dpi`` says otherwise (print quality).
DEFAULT_DPI = 300
#: The cargo of two dice runs from 2 to 12: "stand on at least 2" stands on anything.
LOWEST_CARGO, HIGHEST_CARGO = 2, 12
#: A cell whose plan never stands (it always rerolls): its colour and its mark, in every map.
NEVER_COLOUR = "#b2182b"
NEVER_MARK = "-"
#: The colour map of "stand on at least T" (T from LOWEST_CARGO to HIGHEST_CARGO).
_THRESHOLD_MAP = "viridis"

#: matplotlib settings for print: text that reads at column width, fonts embedded as text
#: (TrueType) in PDF, thin lines; :func:`pyplot` adds a colour cycle that survives colour
#: blindness (:data:`OKABE_ITO`).
STYLE: dict[str, Any] = {
    "font.size": 8,
    "axes.titlesize": 8,
    "axes.labelsize": 8,
    "xtick.labelsize": 7,
    "ytick.labelsize": 7,
    "legend.fontsize": 7,
    "legend.frameon": False,
    "figure.titlesize": 9,
    "axes.linewidth": 0.6,
    "lines.linewidth": 1.2,
    "lines.markersize": 4,
    "errorbar.capsize": 2,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "pdf.fonttype": 42,
    "ps.fonttype": 42,
    "svg.fonttype": "path",
    "savefig.bbox": "tight",
    "savefig.pad_inches": 0.02,
}
#: Okabe & Ito's colours, distinguishable with every common colour blindness.
OKABE_ITO = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#CC79A7",
    "#56B4E9",
    "#D55E00",
    "#F0E442",
    "#000000",
)


def pyplot() -> Any:
    """matplotlib's pyplot, drawing off-screen with :data:`STYLE` applied."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from cycler import cycler

    settings: Any = plt.rcParams  # typed by its keys; STYLE's are checked when applied
    settings.update(STYLE)
    settings["axes.prop_cycle"] = cycler(color=list(OKABE_ITO))
    return plt


def check_figure(path: str | Path, dpi: int = DEFAULT_DPI) -> Path:
    """``path`` if it names a figure this package writes (by its suffix) and ``dpi`` is a
    resolution (a ``ValueError`` naming the choices otherwise).  Checked before any work."""
    p = Path(path)
    if p.suffix.lower() not in FIGURE_SUFFIXES:
        raise ValueError(f"a figure is {', '.join(FIGURE_SUFFIXES)}, got {p.name}")
    if isinstance(dpi, bool) or not isinstance(dpi, int) or not 30 <= dpi <= 2400:
        raise ValueError(f"the resolution is 30 to 2400 dpi, got {dpi}")
    return p


def save(fig: Any, path: str | Path, prov: dict[str, Any], dpi: int = DEFAULT_DPI) -> None:
    """Write ``fig`` as PNG, SVG or PDF (by the suffix) with its provenance, and close it."""
    p = check_figure(path, dpi)
    p.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(p, dpi=dpi, metadata=figure_metadata(prov, p.suffix))
    pyplot().close(fig)


def threshold_colours() -> tuple[Any, Any]:
    """The colour map and norm of "stand on at least T": values above
    :data:`HIGHEST_CARGO` (a plan that never stands) get :data:`NEVER_COLOUR`."""
    import matplotlib
    from matplotlib.colors import Normalize

    cmap = matplotlib.colormaps[_THRESHOLD_MAP].with_extremes(over=NEVER_COLOUR)
    return cmap, Normalize(vmin=LOWEST_CARGO, vmax=HIGHEST_CARGO)


def cell_text_colour(value: float) -> str:
    """Black or white, whichever reads on a cell of the threshold scale holding ``value``."""
    if value > HIGHEST_CARGO:
        return "white"
    cmap, norm = threshold_colours()
    r, g, b, _ = cmap(norm(value))
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.5 else "white"


#: The value a grid holds where the plan never stands: above the scale, so it takes
#: :data:`NEVER_COLOUR`.
NEVER = HIGHEST_CARGO + 1
#: The colour bar's words for the threshold scale and its code for "never".
THRESHOLD_LABEL = f'stand on a cargo of at least T\n"{NEVER_MARK}": never stands (always rerolls)'


def threshold_map(ax: Any, grid: Any, fontsize: float = 6) -> Any:
    """Draw ``grid`` (cells of "stand from T", :data:`NEVER` for never, NaN for no such
    situation) on the threshold scale with its number in every cell that has one; returns the
    image (for :func:`threshold_bar`)."""
    import numpy as np

    cmap, norm = threshold_colours()
    image = ax.imshow(grid, cmap=cmap, norm=norm, aspect="auto", origin="lower")
    # In a panel of many narrow columns two two-digit neighbours ran together ("1210"):
    # there, a two-digit number is written narrower.
    narrow = np.shape(grid)[1] > 12
    for (row, col), value in np.ndenumerate(np.asarray(grid, dtype=float)):
        if value == value:  # not NaN
            text = NEVER_MARK if value >= NEVER else str(int(value))
            size = fontsize * (0.8 if narrow and len(text) > 1 else 1)
            ax.text(
                col, row, text, ha="center", va="center", fontsize=size,
                color=cell_text_colour(value), fontstretch="condensed",
            )  # fmt: skip
    return image


def threshold_bar(fig: Any, image: Any, ax: Any, **kwargs: Any) -> None:
    """The colour bar of the threshold scale, with :data:`NEVER_COLOUR` as its top."""
    bar = fig.colorbar(image, ax=ax, extend="max", **kwargs)
    bar.set_label(THRESHOLD_LABEL)
    bar.set_ticks(range(LOWEST_CARGO, HIGHEST_CARGO + 1, 2))

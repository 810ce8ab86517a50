"""Figures for print: the formats and resolution asked for, a number in every heat-map cell,
one colour and one mark for "never stands" in every strategy map, and dodged error bars."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

from shipcaptaincrew.plots.figure import NEVER, NEVER_COLOUR, NEVER_MARK, threshold_colours
from shipcaptaincrew.rules import find_rules
from tests.need import need_module

from .cli_run import scc

to_hex = need_module("matplotlib.colors").to_hex


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("scc-cache")


def png_dpi(path: Path) -> float:
    """The resolution a PNG says it has (its pHYs chunk: pixels per metre)."""
    data = path.read_bytes()
    at = data.index(b"pHYs")
    per_metre, _, unit = struct.unpack(">IIB", data[at + 4 : at + 13])
    assert unit == 1
    return per_metre * 0.0254


def test_formats_and_resolution(cache: Path, tmp_path: Path) -> None:
    for suffix, magic in ((".png", b"\x89PNG"), (".svg", b"<?xml"), (".pdf", b"%PDF")):
        path = tmp_path / f"s{suffix}"
        done = scc(
            cache, "strategy", "--players", "3", "--plot", str(path), "--dpi", "200",
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert path.read_bytes().startswith(magic)
    assert round(png_dpi(tmp_path / "s.png")) == 200
    wrong = scc(cache, "simulate", "-p", "ev,tip", "-n", "10", "--plot", str(tmp_path / "x.jpg"))
    assert wrong.returncode == 2 and "the file must end in .png, .svg, .pdf" in wrong.stderr
    low = scc(cache, "sweep", "--bots", "ev", "--players", "2", "-n", "10", "--dpi", "10")
    assert low.returncode == 2 and "--dpi must be 30 to 2400, got 10" in low.stderr


def cells(ax: object) -> dict[tuple[int, int], str]:
    """The text drawn at each cell of a heat map (by its column and row)."""
    texts = ax.texts  # type: ignore[attr-defined]
    return {(round(t.get_position()[0]), round(t.get_position()[1])): t.get_text() for t in texts}


def test_every_heat_map_cell_shows_its_number_on_one_scale() -> None:
    from shipcaptaincrew.plots.match_strategy import match_strategy_figure
    from shipcaptaincrew.plots.strategy import strategy_figure
    from shipcaptaincrew.solver.match.table import match_table
    from shipcaptaincrew.solver.table import decision_table

    rules = find_rules("classic")
    win = strategy_figure(rules, decision_table(rules, objective="win", players=3), "win", 3)
    match_rules = rules.replace(format="rounds:2")
    match = match_strategy_figure(match_rules, match_table(match_rules), ("rounds", "lead"))
    maps = [ax for fig in (win, match) for ax in fig.axes if ax.images]
    assert len(maps) >= 2 + 4
    cmap, norm = threshold_colours()
    for ax in maps:
        image = ax.images[0]
        grid = np.asarray(image.get_array(), dtype=float)
        texts = cells(ax)
        for (row, col), value in np.ndenumerate(grid):
            if value != value:  # no such situation: no text either
                assert (col, row) not in texts
                continue
            want = NEVER_MARK if value >= NEVER else str(int(value))
            assert texts[col, row] == want
        # One scale: the same colour for the same threshold in every map, "never" red.
        assert to_hex(image.cmap(image.norm(NEVER))) == to_hex(NEVER_COLOUR)
        assert to_hex(image.cmap(image.norm(7))) == to_hex(cmap(norm(7)))


def test_never_stands_has_one_colour_and_one_mark() -> None:
    """The threshold maps' "never" cell and the expected-score map's "reroll both" cell."""
    from shipcaptaincrew.plots.figure import pyplot, threshold_map
    from shipcaptaincrew.plots.strategy import strategy_figure
    from shipcaptaincrew.solver.table import decision_table

    _fig, ax = pyplot().subplots()
    image = threshold_map(ax, np.array([[NEVER, 7.0], [np.nan, 2.0]]))
    assert cells(ax) == {(0, 0): NEVER_MARK, (1, 0): "7", (1, 1): "2"}
    assert to_hex(image.cmap(image.norm(NEVER))) == to_hex(NEVER_COLOUR)

    rules = find_rules("classic")
    rows = decision_table(rules, objective="ev", players=2)
    ev_ax = strategy_figure(rules, rows, "ev", 2).axes[0]
    ev_image = ev_ax.images[0]
    grid = np.asarray(ev_image.get_array())
    texts = cells(ev_ax)
    lefts = sorted({r.rolls_left for r in rows})
    cargos = sorted({c for r in rows for c in r.decisions})
    rerolls = 0
    for r in rows:
        for c, act in r.decisions.items():
            at = (cargos.index(c), lefts.index(r.rolls_left))
            colour = to_hex(ev_image.cmap(ev_image.norm(grid[at[1], at[0]])))
            if act == "reroll":
                rerolls += 1
                assert texts[at] == NEVER_MARK and colour == to_hex(NEVER_COLOUR)
            else:
                assert texts[at] == act and colour != to_hex(NEVER_COLOUR)
    assert rerolls > 0


def test_the_sweep_dodges_its_error_bars() -> None:
    import pandas as pd

    from shipcaptaincrew.sim.plot import sweep_figure

    frame = pd.DataFrame(
        [
            {"rules": "classic", "players": n, "bot": b, "field": "tip", "seat": 0,
             "win_rate": 1 / n, "ci95_low": 0.8 / n, "ci95_high": 1.2 / n}
            for n in (2, 3, 4) for b in ("ev", "tip", "timid")
        ]
    )  # fmt: skip
    ax = sweep_figure(frame).axes[0]
    xs = [tuple(bars.lines[0].get_xdata()) for bars in ax.containers]  # one per bot
    assert len(xs) == 3
    for n_index in range(3):
        at = sorted(x[n_index] for x in xs)
        assert len(set(at)) == 3 and at[-1] - at[0] < 0.5  # beside each other, near the count

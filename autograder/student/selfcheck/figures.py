"""A mistake students can see: when a public check recognises a mistake in attention weights, the
student's weights are drawn beside the right ones.

- a future leak (or a mask that hides nothing) lights the upper triangle;
- a softmax over the wrong dimension makes the columns sum to 1 instead of the rows;
- a mask applied after the softmax without renormalising leaves pale rows that sum to less than 1.

Every row and column sum is written beside the map, so the difference reads without squinting.
``MistakeFigure`` is the data (which mistake, both weight matrices); ``draw`` renders it with
matplotlib in the notebook's language. Chinese labels use a small font shipped with the package
(``fonts/``), so that they render wherever the notebook runs.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import torch

FONTS_DIR = Path(__file__).resolve().parent.parent / "fonts"
CJK_FONT = FONTS_DIR / "wqy-microhei-subset.ttf"

# The mistakes a figure shows, and the caption (a message key) that says what to look at.
CAPTIONS: dict[str, str] = {
    "future_leak": "figure.future",
    "mask_missing": "figure.future",
    "mask_filled_with_zero": "figure.future",
    "mask_inverted": "figure.future",
    "mask_swapped": "figure.future",
    "mask_shows_next": "figure.future",
    "softmax_over_zeroed_future": "figure.future",
    "softmax_wrong_dim": "figure.columns",
    "normalised_wrong_dim": "figure.columns",
    "mask_after_softmax": "figure.pale_rows",
}


@dataclass(frozen=True)
class MistakeFigure:
    """The student's attention weights and the right ones, (T, T) each, for a named mistake."""

    mistake: str
    yours: torch.Tensor
    right: torch.Tensor


def _matrix(weights: torch.Tensor | None) -> torch.Tensor | None:
    """The first (T, T) matrix of a tensor of weights (the first sequence, the first head)."""
    if not isinstance(weights, torch.Tensor) or weights.ndim < 2 or weights.shape[-1] != weights.shape[-2]:
        return None
    while weights.ndim > 2:
        weights = weights[0]
    return weights.detach().to("cpu", torch.float64)


def figure_for(mistake: str | None, yours, right) -> MistakeFigure | None:
    """The figure of ``mistake`` when it is one a figure shows and both matrices are there."""
    yours, right = _matrix(yours), _matrix(right)
    if mistake not in CAPTIONS or yours is None or right is None or yours.shape != right.shape:
        return None
    return MistakeFigure(mistake, yours, right)


@functools.cache
def use_fonts(language: str) -> None:
    """Let matplotlib draw the labels of ``language`` (Chinese needs a CJK font: the bundled one
    is added after the default font, which keeps Latin letters and digits)."""
    if language != "zh" or not CJK_FONT.is_file():
        return
    from matplotlib import font_manager, rcParams

    font_manager.fontManager.addfont(str(CJK_FONT))
    name = font_manager.FontProperties(fname=str(CJK_FONT)).get_name()
    families = [family for family in rcParams["font.family"] if family != name]
    rcParams["font.family"] = [*families, name]  # a glyph the first families lack comes from the last


def draw(figure: MistakeFigure, words):
    """The matplotlib figure: the student's weights and the right ones side by side, every row and
    column sum written out. ``words(key)`` gives each text in the notebook's language."""
    from matplotlib.figure import Figure

    size = figure.yours.shape[-1]
    columns = CAPTIONS[figure.mistake] == "figure.columns"
    drawn = Figure(figsize=(9.6, 4.4), layout="constrained")
    axes = drawn.subplots(1, 2)
    for ax, weights, title in zip(axes, (figure.yours, figure.right), ("figure.yours", "figure.right"), strict=True):
        image = ax.imshow(weights.nan_to_num(0.0).numpy(), cmap="Blues", vmin=0, vmax=1)
        ax.set_title(words(title))
        column_sums = weights.sum(dim=0).tolist()
        ax.set_xticks(range(size), [f"{col}\nΣ {total:.2f}" if columns else str(col)
                                    for col, total in enumerate(column_sums)], fontsize=8)
        ax.set_yticks(range(size))
        ax.set_xlabel(words("figure.key"))
        for row in range(size):  # each row's sum, right of the map (red where it is not 1)
            total = weights[row].sum().item()
            ax.text(size - 0.35, row, f"Σ {total:.2f}", va="center", ha="left", fontsize=8, clip_on=False,
                    color="#b00020" if abs(total - 1) > 1e-3 else "#444444")
    axes[0].set_ylabel(words("figure.query"))
    drawn.colorbar(image, ax=axes, shrink=0.8, pad=0.06)
    drawn.suptitle(words(CAPTIONS[figure.mistake]), fontsize=10)
    return drawn


def png(figure: MistakeFigure, words) -> bytes:
    """The figure drawn as PNG bytes with matplotlib's Agg canvas: no pyplot, so it renders the
    same whether or not the notebook has drawn a plot yet (a bare ``Figure`` shows as text until
    pyplot has set up the notebook's image formatter)."""
    import io

    from matplotlib.backends.backend_agg import FigureCanvasAgg

    drawn = draw(figure, words)
    buffer = io.BytesIO()
    FigureCanvasAgg(drawn).print_png(buffer)
    return buffer.getvalue()

"""The names the notebooks give a module's layers, and a layer kept under another name.

The attention modules' dropout layer is ``dropout``: the notebooks' demos read the attention
weights where that layer receives them. A module whose one ``nn.Dropout`` is called otherwise
(nanoGPT's ``attn_dropout``) drops the right weights, so it computes what the contract asks and is
not charged; the grader (``hidden/worth_fixing_modules.py``) and the public check both tell it in
their note worth fixing (ARCHITECTURE.md, "Fairness", "Not graded, but worth fixing").
"""

from __future__ import annotations

from collections.abc import Mapping

DROPOUT = "dropout"


def misnamed_dropout(children: Mapping[str, str]) -> str | None:
    """The name of the module's one ``Dropout`` child, given its children's types by name, when
    none is called ``dropout``; None otherwise (no dropout layer, several, or one of that name)."""
    if DROPOUT in children:
        return None
    dropouts = [name for name, kind in children.items() if kind == "Dropout"]
    return dropouts[0] if len(dropouts) == 1 else None

"""Write the small Chinese font the student package ships for its figures.

    python -m autograder.notebooks.cjk_font [SOURCE_FONT]     (`make cjk-font`)

matplotlib's default font has no Chinese characters, and Colab, most hubs and many laptops have
no Chinese font it finds, so the Chinese notebooks' figure titles and labels would show empty
boxes. The package therefore carries a subset of WenQuanYi Micro Hei (Apache-2.0; Debian's
``fonts-wqy-microhei``) holding only the characters its Chinese texts use: the demos' words and
the self-checks' figure captions (``locales/zh/demos.json`` and ``selfcheck.json``). A kit test
fails when a text uses a character the committed font lacks; then install the source font and
run this again. The notebook's own text (markdown, the stubs' docstrings and comments) is shown by
Jupyter in the browser's or editor's fonts, never drawn by matplotlib, so it needs no character here.
"""

from __future__ import annotations

import json
import sys
import unicodedata
from pathlib import Path

from fontTools import subset

from autograder.paths import STUDENT_PACKAGE_DIR
from autograder.student.selfcheck.figures import CJK_FONT

SOURCE_FONT = Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc")
CATALOGS = ("demos", "selfcheck")


def characters() -> str:
    """Every character beyond ASCII in the Chinese texts that figures may show, sorted; symbols
    such as ✅ and ⚠️ (with its variation selector) are left out (the self-checks print them; no
    figure draws one)."""
    found: set[str] = set()
    for name in CATALOGS:
        catalog = json.loads((STUDENT_PACKAGE_DIR / "locales" / "zh" / f"{name}.json").read_text(encoding="utf-8"))
        for text in catalog.values():
            found.update(char for char in text if not char.isascii() and unicodedata.category(char) != "So"
                         and not "\ufe00" <= char <= "\ufe0f")
    return "".join(sorted(found))


def main(argv: list[str]) -> int:
    source = Path(argv[0]) if argv else SOURCE_FONT
    if not source.is_file():
        print(f"error: {source} is missing: install it (apt-get install fonts-wqy-microhei) or name another font",
              file=sys.stderr)
        return 1
    options = subset.Options()
    options.font_number = 0  # the TrueType collection's first face, WenQuanYi Micro Hei
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    font = subset.load_font(str(source), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=characters() + "".join(chr(code) for code in range(32, 127)))
    subsetter.subset(font)
    subset.save_font(font, str(CJK_FONT), options)
    print(f"wrote {CJK_FONT} ({CJK_FONT.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

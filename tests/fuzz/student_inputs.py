"""Hypothesis strategies for what a student (or the student's own tools) controls: the text and
kind of ``timestamp.txt``, notebook files, folder and file names, and answer code."""

from __future__ import annotations

import json
import os
import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

from hypothesis import strategies as st

from autograder.notebooks.variants import load_solution, notebook_text

UTC = timezone.utc  # not datetime.UTC: the kit runs on 3.10 too

# -- timestamp.txt ---------------------------------------------------------------------------
# Zone names as the last word: real ones, folders and files of the tz database, paths,
# abbreviations, offsets out of range, and text.
ZONES = ["UTC", "GMT", "Z", "Europe/Lisbon", "America/Sao_Paulo", "Asia/Shanghai", "EST", "EST5EDT", "CEST", "EDT",
         "America", "Etc", "posix", "right", "Factory", "localtime", "zone.tab", "tzdata.zi", "leap-seconds.list",
         "posixrules", "../../etc/passwd", "/etc/localtime", "Europe/", "+0100", "-0530", "+2400", "-99:99", "+01:00",
         "+1", "UTC+3", "\x00", "America/../Europe/Lisbon", "Etc/GMT+12", "Etc/GMT-14", "NaN", ""]
_moments = st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31, 23, 59, 59))
_formats = st.sampled_from(["%Y-%m-%d %H:%M:%S.%f", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d",
                            "%d/%m/%Y %H:%M", "%Y%m%dT%H%M%S"])
_zones = st.one_of(st.sampled_from(ZONES), st.text(min_size=1, max_size=30).filter(lambda zone: " " not in zone))
nbgrader_like = st.builds(lambda moment, form, zone: f"{moment.strftime(form)} {zone}".strip(), _moments, _formats,
                          _zones)
iso_like = st.builds(lambda moment, offset: moment.replace(tzinfo=timezone(timedelta(minutes=offset))).isoformat(),
                     _moments, st.integers(-1439, 1439))
timestamp_texts = st.one_of(nbgrader_like, iso_like, st.text(max_size=300),
                            st.sampled_from(["", " ", "\n", "9" * 300, "2025-03-01 12:00:00 UTC extra words",
                                             "2025-02-30 12:00:00 UTC", "2025-03-01 25:61:61 UTC",
                                             "-2025-03-01 12:00:00 UTC", "2025-03-01T12:00:00+00:00 UTC"]))


@st.composite
def timestamp_files(draw) -> tuple[str, bytes | str]:
    """What stands where ``timestamp.txt`` should: (kind, content)."""
    kind = draw(st.sampled_from(["text", "text", "text", "bytes", "symlink", "fifo", "folder", "huge", "empty"]))
    if kind == "text":
        return kind, draw(timestamp_texts)
    if kind == "bytes":
        return kind, draw(st.binary(max_size=400))
    if kind == "symlink":
        return kind, draw(st.sampled_from(["/etc/passwd", "/dev/zero", "/proc/self/environ", "missing", "."]))
    return kind, b""


def place_timestamp(folder: Path, kind: str, content: bytes | str) -> None:
    """Put ``timestamp.txt`` of ``kind`` into ``folder``."""
    path = folder / "timestamp.txt"
    if kind == "text":
        path.write_text(content, encoding="utf-8", errors="surrogateescape")
    elif kind in ("bytes", "empty"):
        path.write_bytes(content)
    elif kind == "symlink":
        path.symlink_to(content)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "huge":
        with path.open("wb") as handle:
            handle.truncate(64 * 2**20)


due_dates = st.builds(lambda moment, offset: moment.replace(tzinfo=timezone(timedelta(minutes=offset))),
                      st.datetimes(min_value=datetime(2, 1, 1), max_value=datetime(9998, 12, 31)),
                      st.integers(-14 * 60, 14 * 60))

# -- names -------------------------------------------------------------------------------------
_name_characters = st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00")
folder_names = st.one_of(
    st.text(_name_characters, min_size=1, max_size=60).filter(lambda name: name not in (".", "..")),
    st.binary(min_size=1, max_size=60).filter(lambda raw: b"/" not in raw and b"\x00" not in raw
                                              and raw not in (b".", b"..")).map(os.fsdecode),
    st.sampled_from(["__MACOSX", ".ipynb_checkpoints", "$RECYCLE.BIN", "=1+1", "'=x", "@SUM(A1)", "-2", "+3",
                     "caf\u00e9", "\u202eevil", "a\\b", "x" * 255, " ", "ad a", "grades", "results", "CON"]))


# -- notebooks ----------------------------------------------------------------------------------
_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40)
_json_values = st.recursive(_scalars, lambda children: st.lists(children, max_size=4)
                            | st.dictionaries(st.text(max_size=10), children, max_size=4), max_leaves=12)


@st.composite
def notebook_files(draw, assignment: str) -> bytes:
    """A notebook file of ``assignment`` as a student's tools might leave it: the solution with its
    JSON changed in one place, cut short, re-encoded, or not a notebook at all."""
    kind = draw(st.sampled_from(["changed", "changed", "changed", "truncated", "bytes", "json", "encoding"]))
    text = notebook_text(load_solution(assignment))
    if kind == "truncated":
        return text.encode()[: draw(st.integers(0, len(text)))]
    if kind == "bytes":
        return draw(st.binary(max_size=2000))
    if kind == "json":
        return json.dumps(draw(_json_values)).encode()
    if kind == "encoding":
        return text.encode(draw(st.sampled_from(["utf-16", "utf-32", "latin-1", "utf-8-sig"])), errors="replace")
    notebook = json.loads(text)
    place = draw(st.sampled_from(["nbformat", "nbformat_minor", "metadata", "cells", "cell", "cell field",
                                  "source", "language"]))
    value = draw(_json_values)
    if place in ("nbformat", "nbformat_minor", "metadata", "cells"):
        notebook[place] = value
    elif place == "language":
        notebook["metadata"]["attention_kit"] = {"language": value}
    else:
        cell = random.Random(draw(st.integers(0, 2**32))).choice(notebook["cells"])
        if place == "cell":
            notebook["cells"][notebook["cells"].index(cell)] = value
        elif place == "source":
            cell["source"] = value if draw(st.booleans()) else draw(st.text(max_size=400))
        else:
            cell[draw(st.sampled_from(["cell_type", "metadata", "id", "outputs", "attachments"]))] = value
    return json.dumps(notebook).encode()


# -- answer code (similarity) -----------------------------------------------------------------------
answer_codes = st.one_of(
    st.text(max_size=2000),
    st.builds(lambda lines: "\n".join(lines), st.lists(st.sampled_from(
        ["import torch", "def f(x):", "    return x @ x.T", "class A:", "    pass", "'''", '"""', "\t", "\\",
         "x = (" * 50, "# " + "é" * 100, "\x00", "return", "    " * 40 + "y"]), max_size=80)),
)

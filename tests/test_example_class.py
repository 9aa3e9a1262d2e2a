"""The committed example class is exactly what its generator writes from the masters."""

from autograder.notebooks.example_class import EXAMPLE_CLASS_DIR, build


def _files(root):
    return {p.relative_to(root): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_committed_example_class_is_up_to_date(tmp_path):
    build(tmp_path / "example_class")
    fresh, committed = _files(tmp_path / "example_class"), _files(EXAMPLE_CLASS_DIR)
    stale = sorted(str(path) for path in fresh.keys() | committed.keys() if fresh.get(path) != committed.get(path))
    assert stale == [], "source_data/example_class is stale: run `make assignments` and commit the result"

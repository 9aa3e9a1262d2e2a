"""The committed example class is exactly what its generator writes from the masters."""

from autograder.example_class import EXAMPLE_CLASS_DIR, build


def _files(root):
    return {p.relative_to(root): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_committed_example_class_is_up_to_date(tmp_path):
    build(tmp_path / "example_class")
    assert _files(tmp_path / "example_class") == _files(EXAMPLE_CLASS_DIR), (
        "source_data/example_class is stale: run `make assignments` and commit the result"
    )

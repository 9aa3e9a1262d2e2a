"""``submit()`` from a notebook, end to end: a live service with a grading worker, a student made
with ``service token --create``, the released notebook (``make release --service``'s, so the
notebook names the service itself) run by a real Jupyter kernel through nbclient, with the kernel
told its notebook as jupyter_server tells it (``JPY_SESSION_NAME``). The last cell calls
``submit()``; the test reads the verdict the cell shows, fixes the stage it names, and submits
again for a better score. A second cell submits the same file to another assignment: the service
refuses it, and the cell ends with that refusal alone, in the notebook's language. In English with
the token in ``KIT_TOKEN``, in Chinese with the token in the student's token file; the token never
reaches the notebook.
"""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from platform_class import ASSIGNMENT, WRONG_DIM_SOFTMAX
from service_harness import LiveService

from autograder.notebooks.release import bundle_files
from autograder.notebooks.variants import filled, load_solution, solved_source, with_answer, with_cell
from autograder.paths import KIT_ROOT
from autograder.student import token_store
from autograder.student.curriculum import STAGES_BY_ASSIGNMENT

pytestmark = [pytest.mark.slow, pytest.mark.live]
WRONG_STAGE = "softmax_naive"
OTHER = "02_self_attention"


@pytest.fixture(scope="module")
def service():
    live = LiveService().start()
    yield live
    live.close()


def _released(language: str, service_url: str) -> nbformat.NotebookNode:
    """The notebook a student gets from ``make release SERVICE_URL=...``, answered but for one
    stage (its softmax sums over the wrong dimension), with ``submit()`` in its last cells: once
    as students call it, once to the wrong assignment."""
    files = bundle_files(language, ASSIGNMENT, "attention-kit-student", service_url)
    notebook = nbformat.reads(files[f"{ASSIGNMENT}.ipynb"].decode("utf-8"), as_version=4)
    answered = filled(notebook, load_solution(ASSIGNMENT), STAGES_BY_ASSIGNMENT[ASSIGNMENT])
    submitting = with_cell(with_answer(answered, WRONG_STAGE, WRONG_DIM_SOFTMAX), "submit()")
    return nbformat.from_dict(with_cell(submitting, f'submit(assignment="{OTHER}")'))


def _run(notebook: nbformat.NotebookNode, path: Path, token_env: dict[str, str]) -> tuple[str, str]:
    """Save ``notebook`` at ``path`` (as the student's Ctrl+S), run it in a kernel started for it
    (``notebook`` then holds the outputs); the text the first ``submit()`` cell shows, and the
    error that ends the second."""
    nbformat.write(notebook, path)
    env = {key: value for key, value in os.environ.items()
           if key not in ("KIT_TOKEN", "KIT_SERVICE_URL", "XDG_CONFIG_HOME")}
    env.update(JPY_SESSION_NAME=str(path), PYTHONPATH=str(KIT_ROOT), **token_env)
    client = NotebookClient(notebook, timeout=600, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute(env=env)
    submitted, again = notebook.cells[-2:]
    errors = [output for cell in notebook.cells[:-1] for output in cell.get("outputs", [])
              if output.output_type == "error"]
    assert not errors, errors
    shown = [output.data for output in submitted.outputs if output.output_type == "display_data"]
    assert len(shown) == 1, submitted.outputs  # one display, updated in place from the queue to the grade
    assert "<a href=" in shown[0]["text/html"]
    [refused] = [output for output in again.outputs if output.output_type == "error"]
    assert refused.ename == "SubmitProblem"
    assert refused.traceback == [refused.evalue]  # the message alone, no traceback through the kit
    return shown[0]["text/plain"], refused.evalue


def _score(text: str, points_word: str) -> tuple[float, float]:
    headline = next(line for line in text.splitlines() if line.startswith(ASSIGNMENT) and points_word in line)
    score, _, maximum = headline.split(ASSIGNMENT)[1].strip(":： ").partition(" / ")
    return float(score), float(maximum.split()[0])


@pytest.mark.parametrize(("language", "words"), [
    ("en", {"points": "points", "failed": f"❌ {WRONG_STAGE}:", "feedback": "Feedback page: ",
            "refused": f"The service did not take your notebook: {ASSIGNMENT}.ipynb looks like the notebook of"
                       f" {ASSIGNMENT}, not of {OTHER}"}),
    ("zh", {"points": "分", "failed": f"❌ {WRONG_STAGE}：", "feedback": "反馈页面：",
            "refused": f"服务没有接收你的笔记本：{ASSIGNMENT}.ipynb 看起来是 {ASSIGNMENT} 的笔记本，"
                       f"而不是 {OTHER} 的"}),
])
def test_submit_shows_the_verdict_and_a_fix_scores_better(tmp_path, service, language, words):
    student = f"student_{language}"
    token = service.cli("token", student, "--create", "--name", f"Student {language}").stdout.strip()
    if language == "en":
        token_env = {"KIT_TOKEN": token}
    else:  # typed once on another day, kept in the student's token file
        token_env = {"XDG_CONFIG_HOME": str(tmp_path / "config")}
        token_store.store_token(service.url, token, token_env)
    path = tmp_path / f"{ASSIGNMENT}.ipynb"

    notebook = _released(language, service.url)
    first, refused = _run(notebook, path, token_env)
    assert refused.startswith(words["refused"])
    assert f"{ASSIGNMENT}.ipynb" in first.splitlines()[0]
    assert words["failed"] in first  # the failing stage, and the service's first finding below it
    failure = first.split(words["failed"])[1].splitlines()[1].strip()
    assert failure
    if language == "zh":
        assert any("\u4e00" <= char <= "\u9fff" for char in failure), failure  # the finding, in Chinese
    assert f"{words['feedback']}{service.url}/submissions/" in first
    score, maximum = _score(first, words["points"])
    assert 0 < score < maximum

    fixed = nbformat.from_dict(with_answer(notebook, WRONG_STAGE, solved_source(load_solution(ASSIGNMENT),
                                                                                 WRONG_STAGE)))
    second, _ = _run(fixed, path, token_env)
    assert _score(second, words["points"]) == (maximum, maximum)
    assert "❌" not in second
    assert service.query("SELECT COUNT(*) FROM service_submission s JOIN auth_user u ON s.user_id = u.id"
                         " WHERE u.username = ?", student)[0][0] == 2

    for text in (path.read_text(encoding="utf-8"), nbformat.writes(notebook), nbformat.writes(fixed)):
        assert token not in text

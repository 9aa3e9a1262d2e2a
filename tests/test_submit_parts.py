"""The parts of the notebooks' ``submit()`` that need no service: which notebook file a kernel
runs (as each front end says it), the student's token kept outside the notebook (0600, one per
service, ``KIT_TOKEN`` first), the assignment and the service's address, the release writing that
address, and what the student reads when the service cannot be reached or fails (real HTTP on
loopback: a port where nothing listens, and a server that answers 500).
"""

from __future__ import annotations

import http.server
import json
import os
import stat
import threading
import time

import nbformat
import pytest
from service_harness import free_port

from autograder.notebooks import release
from autograder.student import current_notebook, token_store
from autograder.student.submitting import (
    SubmitProblem,
    assignment_named,
    make_submit,
    messages,
    saved_at,
    service_address,
    verdict,
)

A01 = "01_attention_scores"
SERVICE = "https://grader.example.edu"


def _notebook(path, *sources: str, **kit) -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    notebook.metadata["attention_kit"] = kit
    nbformat.write(notebook, path)


# -- which notebook ----------------------------------------------------------------------------------
def test_the_front_ends_traces_are_read_in_order(tmp_path, monkeypatch):
    """ipykernel's __session__ (JupyterLab, Notebook 7) first, then VS Code's, then the server's
    variable; a path that is not there is passed over."""
    lab, vscode = tmp_path / "lab" / "a.ipynb", tmp_path / "vscode" / "b.ipynb"
    for path in (lab, vscode):
        path.parent.mkdir()
        _notebook(path, "x = 1")
    monkeypatch.chdir(tmp_path)
    both = {"__session__": str(lab), "__vsc_ipynb_file__": str(vscode)}
    assert current_notebook.session_paths(both, {}) == [lab, vscode]
    assert current_notebook.session_paths({"__vsc_ipynb_file__": str(vscode)}, {"JPY_SESSION_NAME": str(lab)}) == \
        [vscode, lab]
    gone = {"__session__": str(tmp_path / "renamed.ipynb")}
    assert current_notebook.session_paths(gone, {"JPY_SESSION_NAME": str(lab)}) == [lab]
    assert current_notebook.session_paths({"__session__": "3f1c-uuid"}, {}) == []


def test_an_older_servers_relative_path_is_found_beside_the_kernel(tmp_path, monkeypatch):
    """jupyter_server before 2.0 named the notebook relative to its root; the kernel runs in the
    notebook's folder, so the name is tried there."""
    _notebook(tmp_path / f"{A01}.ipynb", "x = 1")
    monkeypatch.chdir(tmp_path)
    assert current_notebook.session_paths({}, {"JPY_SESSION_NAME": f"course/week1/{A01}.ipynb"}) == \
        [current_notebook.Path(f"{A01}.ipynb")]


def test_without_a_trace_one_assignment_notebook_in_the_folder_is_taken(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(current_notebook.NotebookNotFound) as missing:
        current_notebook.find_notebook(None, {}, [A01, "02_self_attention"], environ={})
    assert missing.value.reason == "not_found"
    _notebook(tmp_path / f"{A01}.ipynb", "x = 1")
    found = current_notebook.find_notebook(None, {}, [A01, "02_self_attention"], environ={})
    assert (found.name, found.how) == (f"{A01}.ipynb", "folder")
    _notebook(tmp_path / "02_self_attention.ipynb", "y = 2")
    with pytest.raises(current_notebook.NotebookNotFound):  # two: which one is not guessed
        current_notebook.find_notebook(None, {}, [A01, "02_self_attention"], environ={})


def test_a_named_file_must_be_a_notebook(tmp_path):
    (tmp_path / "picture.ipynb").write_bytes(b"\x89PNG\r\n")
    with pytest.raises(current_notebook.NotebookNotFound) as wrong:
        current_notebook.find_notebook(tmp_path / "picture.ipynb", {}, [A01], environ={})
    assert wrong.value.reason == "not_a_notebook"
    with pytest.raises(current_notebook.NotebookNotFound) as missing:
        current_notebook.find_notebook(tmp_path / "nowhere.ipynb", {}, [A01], environ={})
    assert missing.value.reason == "missing_file"


def test_a_saved_file_without_the_running_cell_is_unsaved(tmp_path):
    path = tmp_path / f"{A01}.ipynb"
    _notebook(path, "x = 1", "submit()\n")
    found = current_notebook.read_notebook(path, "session")
    assert not current_notebook.unsaved_cell(found, "submit()")
    assert current_notebook.unsaved_cell(found, "x = 2\nsubmit()")
    assert not current_notebook.unsaved_cell(found._replace(how="given"), "x = 2\nsubmit()")


def test_the_messages_of_a_missing_notebook_say_what_to_type(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    for language, words in (("en", "Save the notebook"), ("zh", "保存笔记本"), ("pt", "Salve o notebook")):
        with pytest.raises(SubmitProblem) as problem:
            make_submit(language)()
        assert words in str(problem.value)
        assert f'submit("{A01}.ipynb")' in str(problem.value)
        assert problem.value._render_traceback_() == [str(problem.value)]  # a notebook shows the message alone


# -- the assignment and the service ------------------------------------------------------------------
def test_the_assignment_comes_from_the_files_name():
    assert assignment_named(f"{A01}.ipynb") == A01
    assert assignment_named(f"Copy of {A01} (1).ipynb") == A01  # Colab's and a browser's copies
    assert assignment_named("homework.ipynb") is None


def test_the_environment_overrides_the_released_address():
    released = {"metadata": {"attention_kit": {"service": SERVICE + "/"}}}
    assert service_address(released, {}) == SERVICE
    assert service_address(released, {"KIT_SERVICE_URL": "http://127.0.0.1:9"}) == "http://127.0.0.1:9"
    assert service_address({"metadata": {}}, {}) == ""


def test_the_release_writes_the_services_address_into_every_notebook():
    files = release.bundle_files("zh", A01, "attention-kit-student", release.service_address(SERVICE + "/"))
    notebook = json.loads(files[f"{A01}.ipynb"])
    assert notebook["metadata"]["attention_kit"] == {"language": "zh", "service": SERVICE}
    plain = json.loads(release.bundle_files("en", A01, "attention-kit-student")[f"{A01}.ipynb"])
    assert "service" not in plain["metadata"].get("attention_kit", {})
    for wrong in ("grader.example.edu", "ftp://grader.example.edu", "https://grader.example.edu/?x=1"):
        with pytest.raises(release.ReleaseError, match="no web address"):
            release.service_address(wrong)


# -- what the student reads ---------------------------------------------------------------------------
GRADED = {"assignment": A01, "score": 85.0, "max_score": 100.0, "page_url": "/submissions/7",
          "feedback_url": "/submissions/7/feedback",
          "stages": [{"stage": "softmax_naive", "passed": 2, "tests": 9, "points": 3.25, "max_points": 15,
                      "message": "softmax sums over <dim 0> & not the last"},
                     {"stage": "attention_scores", "passed": 6, "tests": 6, "points": 15, "max_points": 15,
                      "message": ""}]}


def test_the_verdict_shows_each_stage_and_links_the_feedback_page_in_the_notebooks_language():
    lines, markup = verdict(GRADED, SERVICE, messages("zh"))
    assert lines[0] == f"{A01}：85 / 100 分"
    assert lines[1] == "  ❌ softmax_naive：通过 2/9 个测试，3.25 / 15 分"
    assert lines[2].strip() == "softmax sums over <dim 0> & not the last"
    assert lines[-1] == f"反馈页面：{SERVICE}/submissions/7/feedback"
    assert "&lt;dim 0&gt; &amp; not" in markup  # the finding is text, not HTML
    assert "<dim 0>" not in markup
    assert f'反馈页面：<a href="{SERVICE}/submissions/7/feedback" target="_blank">' in markup


def test_a_policy_that_hides_the_score_until_the_due_date_is_said_so():
    lines, _ = verdict({"assignment": A01, "page_url": "/submissions/7", "visible": "public checks only"},
                       SERVICE, messages("en"))
    assert lines == [messages("en")["hidden_until_due"], f"Your submission's page: {SERVICE}/submissions/7"]
    score_only = {key: value for key, value in GRADED.items() if key not in ("stages", "feedback_url")}
    lines, _ = verdict(score_only, SERVICE, messages("pt"))
    assert lines[:2] == [f"{A01}: 85 / 100 pontos", messages("pt")["details_later"]]


def test_the_verdict_says_in_one_line_when_a_lower_score_replaced_a_higher_one_under_latest():
    replaced = {**GRADED, "score": 25.0, "counting": "latest", "counts": True, "counted_score": 25.0,
                "counted_before": 88.25}
    lines, markup = verdict(replaced, SERVICE, messages("en"))
    assert lines[1] == f"This submission now counts for {A01} (before: 88.25)."
    assert f"<p>This submission now counts for {A01} (before: 88.25).</p>" in markup
    assert verdict(replaced, SERVICE, messages("zh"))[0][1] == f"{A01} 现在计入成绩的是这次提交（之前：88.25）。"


def test_the_verdict_says_the_best_score_still_counts_when_a_lower_one_comes_under_best():
    lower = {**GRADED, "score": 25.0, "counting": "best", "counts": False, "counted_score": 88.25,
             "counted_before": 88.25}
    assert verdict(lower, SERVICE, messages("en"))[0][1] == "Your best submission (88.25) still counts."
    assert verdict(lower, SERVICE, messages("zh"))[0][1] == "仍计入成绩的是你分数最高的提交（88.25）。"


def test_the_verdict_says_nothing_more_for_a_first_or_better_submission():
    plain = verdict(GRADED, SERVICE, messages("en"))[0]
    for counting in ({"counting": "latest", "counts": True, "counted_score": 85.0, "counted_before": None},
                     {"counting": "latest", "counts": True, "counted_score": 85.0, "counted_before": 60.0},
                     {"counting": "best", "counts": True, "counted_score": 85.0, "counted_before": 60.0}):
        assert verdict({**GRADED, **counting}, SERVICE, messages("en"))[0] == plain


def test_the_files_saved_time_carries_its_offset_from_utc(tmp_path, monkeypatch):
    path = tmp_path / f"{A01}.ipynb"
    path.write_text("{}", encoding="utf-8")
    os.utime(path, (1_796_000_000, 1_796_000_000))  # 2026-11-30 00:53:20 UTC
    monkeypatch.setenv("TZ", "Asia/Shanghai")
    time.tzset()
    try:
        assert saved_at(path) == "08:53:20 (UTC+08:00)"
    finally:
        monkeypatch.undo()
        time.tzset()


# -- the token -----------------------------------------------------------------------------------------
def test_the_token_is_kept_for_the_user_alone_one_per_service(tmp_path):
    environ = {"XDG_CONFIG_HOME": str(tmp_path / "config")}
    path = token_store.store_token(SERVICE, "secret-one", environ)
    token_store.store_token("http://other.example", "secret-two", environ)
    assert path == tmp_path / "config" / "attention-kit" / "tokens.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert token_store.stored_token(SERVICE, environ) == "secret-one"
    assert token_store.stored_token(SERVICE, {**environ, "KIT_TOKEN": "from-env"}) == "from-env"
    token_store.forget_token(SERVICE, environ)
    assert token_store.stored_token(SERVICE, environ) == ""
    assert token_store.stored_token("http://other.example", environ) == "secret-two"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [entry.name for entry in path.parent.iterdir()] == ["tokens.json"]  # no partial file left


# -- a service that cannot be reached or fails ----------------------------------------------------------
@pytest.fixture
def saved_notebook(tmp_path, monkeypatch):
    """A notebook that names the service it goes to, a token file in a config folder of its own,
    and no KIT_* variables of the test's environment."""
    path = tmp_path / f"{A01}.ipynb"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    for name in ("KIT_TOKEN", "KIT_SERVICE_URL", "JPY_SESSION_NAME"):
        monkeypatch.delenv(name, raising=False)
    return path


def test_an_unreachable_service_is_not_blamed_on_the_student(saved_notebook):
    address = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    _notebook(saved_notebook, "x = 1", service=address)
    with pytest.raises(SubmitProblem) as problem:
        make_submit("zh", ask=lambda prompt: "typed-token")(saved_notebook)
    assert "无法连接" in str(problem.value)
    assert "不是你笔记本的问题" in str(problem.value)
    assert "typed-token" not in str(problem.value)
    assert token_store.stored_token(address) == ""  # kept only once the service has seen it


class _Failing(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.send_response(500)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(b"<h1>Server Error</h1>")

    def log_message(self, *args):
        pass


def test_a_failing_service_says_it_is_not_the_students_fault(saved_notebook):
    server = http.server.HTTPServer(("127.0.0.1", 0), _Failing)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        _notebook(saved_notebook, "x = 1", service=f"http://127.0.0.1:{server.server_port}")
        with pytest.raises(SubmitProblem) as problem:
            make_submit("en", ask=lambda prompt: "typed-token")(saved_notebook)
    finally:
        server.shutdown()
        server.server_close()
    assert "HTTP 500" in str(problem.value)
    assert "not your fault" in str(problem.value)


def test_without_a_way_to_ask_the_token_the_student_is_told_where_to_get_one(saved_notebook):
    _notebook(saved_notebook, "x = 1", service=SERVICE)

    def no_stdin(prompt):
        raise NotImplementedError("stdin is not allowed here")  # as ipykernel under nbclient

    with pytest.raises(SubmitProblem) as problem:
        make_submit("pt", ask=no_stdin)(saved_notebook)
    assert f"{SERVICE}/token" in str(problem.value)
    assert "KIT_TOKEN" in str(problem.value)
    assert not (saved_notebook.parent / "config").exists()
    assert os.environ.get("KIT_TOKEN") is None

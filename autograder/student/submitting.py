"""``submit()``: send the notebook the student works in to the course's submission service, wait
for its grade and show it in the notebook, in the notebook's language.

    submit()                                  # this notebook, to the service the release names
    submit("path/to/01_attention_scores.ipynb")   # where the notebook cannot be found by itself

What it needs, and where each comes from:

- the notebook: ``current_notebook`` (each front end leaves its own trace; Colab's is fetched
  from the browser);
- the assignment: the file's name holds its id (``01_attention_scores.ipynb``, also as "Copy of
  01_attention_scores.ipynb"), else ``submit(assignment="...")``;
- the service's address: ``KIT_SERVICE_URL``, else the notebook's metadata
  (``attention_kit.service``, written by ``make release SERVICE_URL=...``);
- the student's token: ``token_store`` (``KIT_TOKEN``, or typed once and kept outside the notebook).

The service is asked through the CI client's functions (``service_client``: the same requests,
the same answers). While the notebook waits, its place in the queue shows; then the score and,
as far as the assignment's policy shows them, each stage's tests and first failure (the service
words them in the notebook's language), with the link to the feedback page. A refusal is shown
as the service words it. When the service fails, the message says so, and says that the
notebook is not at fault; anything that keeps the notebook from being graded ends the cell with
an error (``SubmitProblem``), which a notebook shows as the message alone.
"""

from __future__ import annotations

import getpass
import html
import os
import time
import urllib.error
from collections.abc import Callable, Mapping
from datetime import datetime

from . import current_notebook, service_client, token_store
from . import language as languages
from .curriculum import ASSIGNMENTS

SERVICE_VARIABLE = "KIT_SERVICE_URL"
WAIT_S = 600.0

# The messages of submit(), in English; translations in locales/<language>/submit.json.
MESSAGES: dict[str, str] = {
    "not_found": ("This notebook's file could not be found from here. Save the notebook (Ctrl+S, or Cmd+S on"
                  " a Mac), then give its path:  submit(\"{example}.ipynb\")  (with the folder if it is"
                  " elsewhere, for example  submit(\"work/{example}.ipynb\")  )."),
    "missing_file": "There is no file {path}. Check the name and folder, or save the notebook there first.",
    "unreadable": "{path} could not be read ({reason}).",
    "too_large": ("{path} is too large to submit. Clear the outputs (Edit > Clear outputs of all cells), save,"
                  " and submit again."),
    "not_a_notebook": "{path} is not a Jupyter notebook. Give the .ipynb file you work in.",
    "colab_silent": "Colab did not hand over this notebook. Run this cell again; if it goes on, reload the page.",
    "unsaved": ("The saved file {path} does not hold this cell yet, so it is older than what you see. Save the"
                " notebook (Ctrl+S, or Cmd+S on a Mac), then run this cell again."),
    "no_assignment": ("Which assignment is {name}? Say it:  submit(assignment=\"{example}\")  (one of: {ids})."),
    "no_service": ("This notebook does not know your course's submission service. Ask your instructor for its"
                   " address, then run  import os; os.environ[\"KIT_SERVICE_URL\"] = \"https://...\"  and"
                   " submit again."),
    "ask_token": ("Your API token for {service} (make one on the service's page \"API token for CI\": {page}; it is"
                  " kept on this computer, never in the notebook): "),
    "no_token": ("An API token is needed to submit. Make one on the service's page \"API token for CI\" ({page}),"
                 " then run submit() in the notebook and paste it when asked, or set the variable KIT_TOKEN."),
    "bad_token": ("The service did not accept your API token (it may have been replaced or revoked); it is"
                  " forgotten here. Make a new one on the page \"API token for CI\" ({page}), run submit() again"
                  " and paste it."),
    "refused": "The service did not take your notebook: {reason}",
    "unreachable": ("The submission service at {service} could not be reached ({reason}). This is not a problem"
                    " with your notebook: try again in a few minutes, and tell your instructor if it goes on."),
    "service_failed": ("The submission service had a problem (HTTP {code}) and did not take your notebook. This is"
                       " not your fault: try again in a few minutes, and tell your instructor if it goes on."),
    "sent": "{name} sent to the service (saved {saved}).",
    "sent_live": "{name} sent to the service.",
    "queued": "Waiting to be graded: number {position} in the queue.",
    "running": "Being graded now…",
    "slow": ("Not graded within {seconds:g} s, but your notebook is stored and waits its turn: the result will be"
             " on {url}. There is no need to submit again."),
    "lost": ("Your notebook is stored, but the service stopped answering while it was graded ({reason}). The"
             " result will be on {url}; there is no need to submit again."),
    "score": "{assignment}: {score:g} / {max_score:g} points",
    "counts_now": "This submission now counts for {assignment} (before: {before:g}).",
    "best_counts": "Your best submission ({score:g}) still counts.",
    "stage": "{stage}: {passed}/{tests} tests passed, {points:g} / {max_points:g} points",
    "hidden_until_due": ("Graded. Until the due date your instructor shows only the public checks: run"
                         " check(\"<stage>\") here. The score and the feedback open then."),
    "details_later": "Your instructor shows each stage's feedback later.",
    "feedback_page": "Feedback page: {url}",
    "submission_page": "Your submission's page: {url}",
}


class SubmitProblem(Exception):
    """The notebook was not graded; the message, in the notebook's language, says why and what to do.

    A notebook shows only the message (``_render_traceback_``, IPython's hook), not a traceback
    through the kit's code, and "Run All" stops here as at any error."""

    def _render_traceback_(self) -> list[str]:
        return [str(self)]


def messages(language: str) -> Mapping[str, str]:
    return languages.messages(language, "submit", MESSAGES)


def service_address(notebook: dict, environ: Mapping[str, str] = os.environ) -> str:
    """``KIT_SERVICE_URL``, else the address the release wrote into the notebook; "" when neither."""
    kit = notebook.get("metadata", {}).get(languages.METADATA_KEY, {})
    written = kit.get("service", "") if isinstance(kit, dict) else ""
    address = environ.get(SERVICE_VARIABLE, "").strip() or (written if isinstance(written, str) else "")
    return address.strip().rstrip("/")


def assignment_named(file_name: str) -> str | None:
    """The assignment whose id the file's name holds (the longest, should one id hold another)."""
    held = [assignment_id for assignment_id in ASSIGNMENTS if assignment_id in file_name]
    return max(held, key=len) if held else None


class Shown:
    """What one submit() shows, kept up to date in place: one display in a notebook (HTML and
    text), else printed lines."""

    def __init__(self):
        self.handle = None
        try:
            from IPython import get_ipython
            from IPython.display import display
        except ImportError:
            return
        shell = get_ipython()
        if shell is not None and getattr(shell, "kernel", None) is not None:
            self.handle = display({"text/plain": ""}, raw=True, display_id=True)

    def show(self, lines: list[str], markup: str) -> None:
        if self.handle is None:
            print("\n".join(lines), flush=True)
        else:
            self.handle.update({"text/plain": "\n".join(lines), "text/html": markup}, raw=True)


def _paragraphs(lines: list[str]) -> str:
    return "".join(f"<p>{html.escape(line)}</p>" for line in lines)


def verdict(status: dict, service: str, said: Mapping[str, str]) -> tuple[list[str], str]:
    """A graded submission as text lines and as HTML: the score, the stages as far as the policy
    shows them, and the link to the feedback page (else to the submission's page)."""
    lines: list[str] = []
    markup = ""
    if "score" in status:
        headline = said["score"].format(assignment=status["assignment"], score=status["score"],
                                        max_score=status["max_score"])
        lines.append(headline)
        markup += f"<p><strong>{html.escape(headline)}</strong></p>"
        counting = counting_notice(status, said)
        if counting:
            lines.append(counting)
            markup += _paragraphs([counting])
        if "stages" in status:
            items = ""
            for stage in status["stages"]:
                line = said["stage"].format(**{key: stage[key] for key in
                                               ("stage", "passed", "tests", "points", "max_points")})
                mark = "✅" if stage["passed"] == stage["tests"] else "❌"
                lines.append(f"  {mark} {line}")
                items += f"<li>{mark} {html.escape(line)}"
                if stage.get("message"):
                    lines.append(f"      {stage['message']}")
                    items += f"<br><span>{html.escape(stage['message'])}</span>"
                items += "</li>"
            markup += f"<ul style=\"list-style: none; padding-left: 0\">{items}</ul>"
        else:
            lines.append(said["details_later"])
            markup += _paragraphs(lines[-1:])
    else:
        lines.append(said["hidden_until_due"])
        markup += _paragraphs(lines[-1:])
    key, address = ("feedback_page", status["feedback_url"]) if status.get("feedback_url") else \
        ("submission_page", status["page_url"])
    url = html.escape(service + address)
    lines.append(said[key].format(url=service + address))
    markup += "<p>" + html.escape(lines[-1]).replace(url, f'<a href="{url}" target="_blank">{url}</a>') + "</p>"
    return lines, markup


def counting_notice(status: dict, said: Mapping[str, str]) -> str:
    """One line when this submission's score is not simply the better one that counts: under
    "latest", it replaced a higher score; under "best", a higher one still counts. "" otherwise
    (and from a service that does not say)."""
    score, before, best = status.get("score"), status.get("counted_before"), status.get("counted_score")
    if status.get("counting") == "latest" and status.get("counts") and before is not None and before > score:
        return said["counts_now"].format(assignment=status["assignment"], before=before)
    if status.get("counting") == "best" and not status.get("counts") and best is not None and best > score:
        return said["best_counts"].format(score=best)
    return ""


def _token(service: str, said: Mapping[str, str], ask: Callable[[str], str]) -> str:
    token = token_store.stored_token(service)
    if token:
        return token
    try:
        token = ask(said["ask_token"].format(service=service, page=f"{service}/token")).strip()
    except (NotImplementedError, EOFError, OSError):  # no way to ask here (nbclient, a pipe)
        token = ""
    if not token:
        raise SubmitProblem(said["no_token"].format(page=f"{service}/token"))
    return token


def _send(service: str, token: str, found, assignment: str, language: str, said: Mapping[str, str]) -> dict:
    """POST the notebook; its addresses at the service, or SubmitProblem saying why not."""
    try:
        code, answer = service_client.send_notebook(service, token, assignment, found.name, found.content, language)
    except (urllib.error.URLError, OSError) as error:
        raise SubmitProblem(said["unreachable"].format(service=service, reason=_reason(error))) from None
    except ValueError:
        raise SubmitProblem(said["service_failed"].format(code="?")) from None
    if code == 401:
        if not os.environ.get(token_store.TOKEN_VARIABLE):
            token_store.forget_token(service)
        raise SubmitProblem(said["bad_token"].format(page=f"{service}/token"))
    if code >= 500 or (code != 201 and not answer.get("error")):
        raise SubmitProblem(said["service_failed"].format(code=code))
    if not os.environ.get(token_store.TOKEN_VARIABLE):
        token_store.store_token(service, token)  # the service knows it: keep it for next time
    if code != 201:
        raise SubmitProblem(said["refused"].format(reason=answer["error"]))
    return answer


def _reason(error: Exception) -> str:
    return str(getattr(error, "reason", "") or error)


def make_submit(language: str, ask: Callable[[str], str] = getpass.getpass):
    """``submit`` for a notebook in ``language`` (its messages, and the service's refusals, in it)."""
    said = messages(language)

    def submit(notebook: str | os.PathLike | None = None, *, assignment: str | None = None,
               wait: float = WAIT_S) -> None:
        """Send this notebook (or the file ``notebook``) to the course's service and show its grade."""
        namespace, running_cell = _kernel_state()
        try:
            found = current_notebook.find_notebook(notebook, namespace, ASSIGNMENTS)
        except current_notebook.NotebookNotFound as missing:
            example = ASSIGNMENTS[0]
            raise SubmitProblem(said[missing.reason].format(example=example, **missing.fields)) from None
        if current_notebook.unsaved_cell(found, running_cell):
            raise SubmitProblem(said["unsaved"].format(path=found.path))
        assignment = assignment or assignment_named(found.name)
        if assignment is None:
            raise SubmitProblem(said["no_assignment"].format(name=found.name, example=ASSIGNMENTS[0],
                                                             ids=", ".join(ASSIGNMENTS)))
        service = service_address(found.notebook)
        if not service:
            raise SubmitProblem(said["no_service"])
        token = _token(service, said, ask)
        answer = _send(service, token, found, assignment, language, said)
        sent = said["sent"].format(name=found.name, saved=saved_at(found.path)) if found.path else \
            said["sent_live"].format(name=found.name)
        _follow(service, token, answer, sent, wait, said, Shown())

    return submit


def _follow(service: str, token: str, answer: dict, sent: str, wait: float, said: Mapping[str, str],
            shown: Shown) -> None:
    """Show the queue place until the grade comes, then the grade; or where it will be."""
    page = service + answer["page_url"]
    deadline = time.monotonic() + wait
    status: dict = {}
    while True:
        try:
            code, status = service_client.look(service, token, answer["status_url"])
        except (urllib.error.URLError, OSError, ValueError) as error:
            lines = [sent, said["lost"].format(reason=_reason(error), url=page)]
            shown.show(lines, _paragraphs(lines))
            return
        if code == 200 and status.get("state") == "done":
            break
        if time.monotonic() > deadline:
            lines = [sent, said["slow"].format(seconds=wait, url=page)]
            shown.show(lines, _paragraphs(lines))
            return
        waiting = said["running"] if status.get("state") == "running" else \
            said["queued"].format(position=status.get("position", "?"))
        shown.show([sent, waiting], _paragraphs([sent, waiting]))
        time.sleep(service_client.pause(status))
    lines, markup = verdict(status, service, said)
    shown.show([sent, *lines], _paragraphs([sent]) + markup)


def saved_at(path: os.PathLike) -> str:
    """When the file was last saved, in this computer's time with its offset from UTC (the
    service's times beside it carry theirs): ``20:32:53 (UTC+01:00)``."""
    saved = datetime.fromtimestamp(os.stat(path).st_mtime).astimezone()
    return f"{saved:%H:%M:%S} (UTC{saved.isoformat(timespec='seconds')[-6:]})"


def _kernel_state() -> tuple[Mapping, str | None]:
    """The kernel's namespace (where the front ends leave the notebook's path) and the source of
    the running cell; nothing outside IPython."""
    try:
        from IPython import get_ipython
    except ImportError:
        return {}, None
    shell = get_ipython()
    if shell is None:
        return {}, None
    raw = shell.history_manager.input_hist_raw
    return shell.user_ns, raw[-1] if raw else None

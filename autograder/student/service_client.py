"""Submit a notebook to the course's submission service and print what it says: the runner of a
student repository's CI job (GitHub Actions, GitLab CI) needs only this file and Python 3.

Standard library only, and nothing else of the kit: the job fetches it from the service itself
(``<service>/client/submit.py``), so the hidden tests and the solutions never reach the runner.
The notebooks' ``submit()`` (``submitting.py``, beside this file in the student package) talks to
the service through the same functions: ``send_notebook``, ``look`` and ``pause``.

    KIT_TOKEN=<the student's API token> python3 submit.py --service https://grader.example.edu \\
        --assignment 01_attention_scores --notebook 01_attention_scores.ipynb

Exit status: 0 once graded (whatever the score), 1 when the service could not be reached or did
not grade in time, 2 when it refused the upload (the message says why), 3 with ``--fail-under
PERCENT`` when the score is below it. ``--summary FILE`` appends a Markdown summary (GitHub's job
summary); ``--result-output FILE`` appends ``result=<base64>``, the autograding actions' result.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path


def _request(url: str, token: str, body: bytes | None = None, content_type: str = "") -> tuple[int, dict]:
    """The status and JSON answer of one API call; raises ``urllib.error.URLError`` or ``OSError``
    when the service cannot be reached, ``ValueError`` when a success is not JSON."""
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
    if content_type:
        headers["Content-Type"] = content_type
    request = urllib.request.Request(url, data=body, headers=headers, method="POST" if body is not None else "GET")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        try:
            return error.code, json.loads(error.read() or b"{}")
        except ValueError:
            return error.code, {"error": f"HTTP {error.code}"}


def multipart(fields: dict[str, str], file_field: str, filename: str, content: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
             for name, value in fields.items()]
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{file_field}"; filename="{filename}"\r\n'
                 "Content-Type: application/octet-stream\r\n\r\n".encode() + content + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def send_notebook(service: str, token: str, assignment: str, filename: str, content: bytes,
                  language: str = "") -> tuple[int, dict]:
    """POST the notebook: 201 and its addresses (``status_url``, ``page_url``), or the refusal's
    status and ``{"error": <why, in language (en, zh, pt; English by default)>, "refusal": <key>}``."""
    fields = {"assignment": assignment, **({"language": language} if language else {})}
    body, content_type = multipart(fields, "notebook", filename, content)
    return _request(f"{service}/api/v1/submissions", token, body, content_type)


def look(service: str, token: str, status_url: str) -> tuple[int, dict]:
    """GET a submission's status: where it waits (``position``, ``poll_after``) or its result."""
    return _request(f"{service}{status_url}", token)


def autograding_result(status: dict) -> str:
    """The autograding actions' ``result``: base64 of ``{version, status, max_score, tests}``."""
    tests = [{"name": f"{status['assignment']}: {stage['stage']}",
              "status": "pass" if stage["passed"] == stage["tests"] else "fail",
              "score": stage["points"], "max_score": stage["max_points"], "message": stage.get("message", "")}
             for stage in status.get("stages", [])]
    document = {"version": 1, "status": "pass" if tests and all(t["status"] == "pass" for t in tests) else "fail",
                "max_score": status.get("max_score", 0), "tests": tests}
    return base64.b64encode(json.dumps(document, ensure_ascii=False).encode()).decode()


def pause(status: dict) -> float:
    """The seconds the service asks to wait before the next look (``poll_after``; 1 if it says none)."""
    try:
        return min(30.0, max(0.5, float(status.get("poll_after", 1))))
    except (TypeError, ValueError):
        return 1.0


def report(status: dict, service: str) -> list[str]:
    """What a CI job prints of a graded submission. The feedback page (``feedback_url``) is named
    only when the service gives it, that is when the policy shows the feedback; else the link is
    the submission's own page, named so (the score and the history)."""
    lines = [f"{status['assignment']}: received {status['received_at']} by the service"]
    if "score" not in status:
        lines.append(status.get("visible", "graded; the score is shown after the due date"))
    else:
        lines.append(f"Score: {status['score']:g} / {status['max_score']:g} ({status['status']})")
        for stage in status.get("stages", []):
            lines.append(f"  {stage['stage']}: {stage['passed']}/{stage['tests']} tests,"
                         f" {stage['points']:g} / {stage['max_points']:g} points")
            if stage.get("message"):
                lines.append(f"      {stage['message']}")
    if status.get("feedback_url"):
        lines.append(f"Feedback page: {service}{status['feedback_url']}")
    else:
        lines.append(f"Submission page: {service}{status['page_url']}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Submit a notebook to the attention kit's submission service.")
    parser.add_argument("--service", default=os.environ.get("KIT_SERVICE_URL", ""), help="the service's address")
    parser.add_argument("--assignment", required=True)
    parser.add_argument("--notebook", type=Path, required=True)
    parser.add_argument("--wait", type=float, default=600, help="seconds to wait for the grade (default 600)")
    parser.add_argument("--fail-under", type=float, help="exit 3 when the score is below this percentage")
    parser.add_argument("--summary", type=Path, help="append a Markdown summary here")
    parser.add_argument("--result-output", type=Path, help="append result=<base64> here (GitHub's step outputs)")
    args = parser.parse_args(argv)
    token = os.environ.get("KIT_TOKEN", "").strip()
    service = args.service.rstrip("/")
    if not token or not service:
        print("Set KIT_TOKEN (your API token, from the service's 'API token for CI' page, as a CI secret) and"
              " KIT_SERVICE_URL (or --service).", file=sys.stderr)
        return 1
    if not args.notebook.is_file():
        print(f"{args.notebook} is not in the repository: commit your notebook under that name.", file=sys.stderr)
        return 2
    try:
        code, answer = send_notebook(service, token, args.assignment, args.notebook.name, args.notebook.read_bytes())
        if code != 201:
            print(f"The service did not take the notebook: {answer.get('error', f'HTTP {code}')}", file=sys.stderr)
            return 2 if code < 500 else 1
        deadline = time.monotonic() + args.wait
        status = answer
        while time.monotonic() < deadline:
            code, status = look(service, token, answer["status_url"])
            if code == 200 and status.get("state") == "done":
                break
            time.sleep(pause(status))
        else:
            print(f"Not graded within {args.wait:g} s; it stays queued: see {service}{answer['page_url']}",
                  file=sys.stderr)
            return 1
    except (urllib.error.URLError, OSError, ValueError) as error:
        print(f"The service at {service} could not be reached ({error}).", file=sys.stderr)
        return 1
    lines = report(status, service)
    print("\n".join(lines))
    if args.summary:
        with args.summary.open("a", encoding="utf-8") as handle:
            handle.write(f"## {status['assignment']}\n\n```\n" + "\n".join(lines) + "\n```\n")
    if args.result_output and "stages" in status:
        with args.result_output.open("a", encoding="utf-8") as handle:
            handle.write(f"result={autograding_result(status)}\n")
    below = "score" in status and status["score"] < (args.fail_under or 0) / 100 * status["max_score"]
    return 3 if args.fail_under is not None and below else 0


if __name__ == "__main__":
    sys.exit(main())

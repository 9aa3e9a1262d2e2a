"""``make bench-serve``: the submission service under load, on loopback only.

It starts ``python -m autograder serve`` in a scratch data folder (one grading worker by default)
and measures, from the client's side, the time from the start of an upload to the moment the API
reports the submission graded (what a student waits for the feedback page):

1. **warm**: one complete notebook at a time, ``--warm`` times: p50 and p95;
2. **rush**: ``--students`` students (200) each upload one notebook at a random moment within
   ``--window`` seconds (60), a class's mix (complete notebooks, one mistake, untouched stubs,
   over the four assignments), each then polling its status every second as the queue page does;
   the throughput, p50/p95/max, and that every upload was stored and graded exactly once.

It samples the memory (RSS) of every process of the service while it runs and prints each kind's
peak. The load is bounded in count and time and goes to 127.0.0.1 only.

    python -m autograder.tools.bench_serve [--students 200] [--window 60] [--warm 20] [--workers 1]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from datetime import datetime
from pathlib import Path

import psutil

from autograder.course.paths import KIT_ROOT
from autograder.platforms.service_client import _multipart
from autograder.student.curriculum import ASSIGNMENTS

EXAMPLE = KIT_ROOT / "source_data" / "example_class"
MIX = ["ada_full_marks"] * 10 + ["ben_partial"] * 7 + ["cy_untouched_stubs"] * 3  # complete, mistakes, stubs


def _notebook(student: str, assignment: str, tag: str) -> bytes:
    path = EXAMPLE / student / assignment / f"{assignment}.ipynb"
    if not path.exists():
        path = EXAMPLE / "ada_full_marks" / assignment / f"{assignment}.ipynb"
    notebook = json.loads(path.read_text(encoding="utf-8"))
    notebook["metadata"].setdefault("attention_kit", {})["bench"] = tag  # distinct bytes
    return json.dumps(notebook).encode()


def _request(url: str, token: str, body: bytes | None = None, content_type: str = "") -> dict:
    headers = {"Authorization": f"Bearer {token}"}
    if content_type:
        headers["Content-Type"] = content_type
    with urllib.request.urlopen(urllib.request.Request(url, data=body, headers=headers), timeout=120) as answer:
        return json.loads(answer.read())


def _submit_and_wait(base: str, token: str, assignment: str, content: bytes, poll: float) -> tuple[float, int]:
    """Seconds from the upload's start to "graded", and the submission's id."""
    start = time.perf_counter()
    body, content_type = _multipart({"assignment": assignment}, "notebook", f"{assignment}.ipynb", content)
    created = _request(f"{base}/api/v1/submissions", token, body, content_type)
    while _request(f"{base}{created['status_url']}", token).get("state") != "done":
        time.sleep(poll)
    return time.perf_counter() - start, created["id"]


class Service:
    """``serve`` in a scratch folder; its processes' memory sampled while it runs."""

    def __init__(self, workers: int):
        self.root = Path(tempfile.mkdtemp(prefix="kit-bench-serve-"))
        self.root.chmod(0o755)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "KIT_SERVICE_DATA": str(self.root / "data"), "KIT_SERVICE_BASE_URL": self.base}
        self.process = subprocess.Popen([sys.executable, "-m", "autograder", "serve", "--port", str(self.port),
                                         "--workers", str(workers)], cwd=KIT_ROOT, env=self.env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        self.peaks: dict[str, int] = {}
        self._stop = threading.Event()
        self._sampler = threading.Thread(target=self._sample, daemon=True)
        self._sampler.start()
        deadline = time.monotonic() + 180
        while not self._ready():
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.close()
                raise SystemExit("the service did not start (run `python -m autograder serve` to see why)")
            time.sleep(0.5)

    def _ready(self) -> bool:
        database = self.root / "data" / "service.sqlite3"
        if not database.exists():
            return False
        try:
            with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
                return bool(connection.execute("SELECT 1 FROM service_gradingworker WHERE state = 'ready'").fetchall())
        except sqlite3.OperationalError:
            return False

    @staticmethod
    def _kind(process: psutil.Process) -> str:
        command = " ".join(process.cmdline())
        if "autograder.worker.forkserver" in command:
            parent = process.parent()
            if parent and "autograder.worker.forkserver" in " ".join(parent.cmdline()):
                return "grading shard or sandboxed worker (forked)"
            return "fork server"
        if "service worker" in command:
            return "grading worker"
        if process.username() != "root" or process.uids().real != 0:
            return "web (gunicorn, unprivileged)"
        return "serve (supervisor)"

    def _sample(self) -> None:
        while not self._stop.wait(0.25):
            try:
                tree = [psutil.Process(self.process.pid), *psutil.Process(self.process.pid).children(recursive=True)]
            except psutil.Error:
                continue
            for process in tree:
                try:
                    kind, rss = self._kind(process), process.memory_info().rss
                except psutil.Error:
                    continue
                self.peaks[kind] = max(self.peaks.get(kind, 0), rss)

    def manage(self, *args: str) -> str:
        return subprocess.run([sys.executable, "-m", "autograder", "service", *args], cwd=KIT_ROOT, env=self.env,
                              capture_output=True, text=True, check=True).stdout

    def tokens(self, students: list[str]) -> dict[str, str]:
        roster = self.root / "roster.csv"
        roster.write_text("student_id\n" + "\n".join(students) + "\n")
        self.manage("links", str(roster), "--out", str(self.root / "links.csv"))
        code = ("import os, sys, json; os.environ['DJANGO_SETTINGS_MODULE']='autograder.service.settings';"
                " import django; django.setup(); from django.contrib.auth import get_user_model;"
                " from autograder.service.accounts import make_api_token; users = get_user_model().objects;"
                " print(json.dumps({n: make_api_token(users.get(username=n)) for n in sys.argv[1:]}))")
        done = subprocess.run([sys.executable, "-c", code, *students], cwd=KIT_ROOT, env=self.env,
                              capture_output=True, text=True, check=True)
        return json.loads(done.stdout)

    def query(self, sql: str) -> list[tuple]:
        with sqlite3.connect(f"file:{self.root / 'data' / 'service.sqlite3'}?mode=ro", uri=True) as connection:
            return connection.execute(sql).fetchall()

    def close(self) -> None:
        self._stop.set()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
        shutil.rmtree(self.root, ignore_errors=True)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--window", type=float, default=60.0, help="seconds over which the rush's uploads start")
    parser.add_argument("--warm", type=int, default=20, help="uploads, one at a time, for the warm latency")
    parser.add_argument("--workers", type=int, default=1, help="grading workers")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    random.seed(args.seed)
    print(f"Starting the service ({args.workers} grading worker(s)) on loopback ...", flush=True)
    started = time.perf_counter()
    service = Service(args.workers)
    try:
        print(f"ready in {time.perf_counter() - started:.1f} s (web, worker, start-up checks and canaries)")
        students = [f"bench{index:03d}" for index in range(args.students)] + ["warm"]
        tokens = service.tokens(students)

        warm = [_submit_and_wait(service.base, tokens["warm"], ASSIGNMENTS[0],
                                 _notebook("ada_full_marks", ASSIGNMENTS[0], f"warm{index}"), 0.02)[0]
                for index in range(args.warm + 2)][2:]  # the first two warm the web's caches
        print(f"\nWarm, one complete notebook at a time ({args.warm} uploads): upload to graded p50"
              f" {statistics.median(warm):.3f} s, p95 {_percentile(warm, 0.95):.3f} s, max {max(warm):.3f} s")

        plan = [(student, ASSIGNMENTS[index % len(ASSIGNMENTS)], MIX[index % len(MIX)],
                 random.uniform(0, args.window)) for index, student in enumerate(students[:-1])]
        rush_start = time.perf_counter()

        def one(item) -> tuple[float, int]:
            student, assignment, kind, at = item
            time.sleep(max(0.0, rush_start + at - time.perf_counter()))
            content = _notebook(kind, assignment, student)
            return _submit_and_wait(service.base, tokens[student], assignment, content, 1.0)

        with concurrent.futures.ThreadPoolExecutor(max_workers=len(plan)) as pool:
            results = list(pool.map(one, plan))
        elapsed = time.perf_counter() - rush_start
        latencies = [latency for latency, _ in results]
        ids = ",".join(str(submission) for _, submission in results)
        stored = service.query(f"SELECT COUNT(*) FROM service_submission WHERE id IN ({ids})")[0][0]
        graded = service.query(f"SELECT submission_id, COUNT(*) FROM service_grading WHERE state = 'done' AND"
                               f" submission_id IN ({ids}) GROUP BY submission_id")
        once = sum(1 for _, count in graded if count == 1)
        first, last = service.query(f"SELECT MIN(g.claimed_at), MAX(g.finished_at) FROM service_grading g WHERE"
                                    f" g.submission_id IN ({ids})")[0]
        print(f"\nRush: {len(plan)} students, each uploading once within {args.window:g} s (polling every second)")
        print(f"  all graded after {elapsed:.1f} s; stored {stored}/{len(plan)},"
              f" graded exactly once {once}/{len(plan)}")
        print(f"  upload to graded: p50 {statistics.median(latencies):.2f} s, p95 {_percentile(latencies, 0.95):.2f} s,"
              f" max {max(latencies):.2f} s")
        span = (datetime.fromisoformat(last) - datetime.fromisoformat(first)).total_seconds()
        print(f"  throughput: {len(plan) / elapsed:.2f} notebooks/s over the rush; the grader's own"
              f" {len(plan) / span:.2f} notebooks/s from its first claim to its last result")
        print("\nPeak memory (RSS) by process kind:")
        for kind, peak in sorted(service.peaks.items()):
            print(f"  {kind}: {peak / 2**20:.0f} MiB")
        lost = stored != len(plan) or once != len(plan)
        return 1 if lost else 0
    finally:
        service.close()


if __name__ == "__main__":
    sys.exit(main())

"""``make bench-serve``: the submission service under load, on loopback only.

It starts ``python -m autograder serve`` in a scratch data folder, on SQLite (the default) or on a
scratch PostgreSQL server (``--database postgres``), with ``--workers`` grading workers, and
measures, from the client's side, the time from the start of an upload to the moment the API
reports the submission graded (what a student waits for the feedback page):

1. **warm**: one complete notebook at a time, ``--warm`` times: p50 and p95;
2. **rush**: ``--students`` students (200) each upload one notebook at a random moment within
   ``--window`` seconds (60), a class's mix (complete notebooks, one mistake, untouched stubs,
   over the four assignments), each then polling its status as the queue page and the CI client
   do (as often as the service's ``poll_after`` asks, or every ``--poll`` seconds); the
   throughput, p50/p95/max, that every upload was stored and graded exactly once, and each
   grading worker's own throughput (what one more worker, or machine, would add);
3. **mixed rush**: the same rush by other students, but ``--misbehaving`` of them (5 %) upload a
   notebook whose ``softmax_naive`` loops forever or takes memory until the sandbox stops it (half
   each): p50/p95/max for the innocent students, whose wait must not depend on those notebooks
   (the goal: p95 <= 15 s with two workers on two cores), and for the others apart.

The machine's load average is printed before the service starts, when the rush begins and during
it (the kit's figures are measured on shared machines: the load says how much of the CPU others
took). The memory (RSS) of every process of the service is sampled and each kind's peak printed.
The load is bounded in count and time and goes to 127.0.0.1 only.

    python -m tools.bench_serve [--students 200] [--window 60] [--warm 20] [--workers 1]
                              [--database sqlite|postgres] [--poll SECONDS] [--misbehaving 0.05]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
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

from autograder.notebooks.variants import with_answer
from autograder.paths import KIT_ROOT
from autograder.student.curriculum import ASSIGNMENTS
from autograder.student.service_client import multipart

EXAMPLE = KIT_ROOT / "source_data" / "example_class"
MIX = ["ada_full_marks"] * 10 + ["ben_partial"] * 7 + ["cy_untouched_stubs"] * 3  # complete, mistakes, stubs
# The mixed rush's misbehaving answers: a stage that never returns, and one that takes memory
# (128 MiB at a time, written) until the sandbox's limit stops it.
MISBEHAVING = {
    "endless loop": "import torch\n\ndef softmax_naive(x, dim=-1):\n    while True:\n        pass\n",
    "memory hog": "import torch\n\ndef softmax_naive(x, dim=-1):\n    held = []\n    while True:\n"
                  "        held.append(torch.ones(2**25))\n",
}


def _notebook(student: str, assignment: str, tag: str) -> bytes:
    path = EXAMPLE / student / assignment / f"{assignment}.ipynb"
    if not path.exists():
        path = EXAMPLE / "ada_full_marks" / assignment / f"{assignment}.ipynb"
    notebook = json.loads(path.read_text(encoding="utf-8"))
    notebook["metadata"].setdefault("attention_kit", {})["bench"] = tag  # distinct bytes
    return json.dumps(notebook).encode()


def _misbehaving_notebook(kind: str, tag: str) -> bytes:
    """A complete first notebook whose ``softmax_naive`` is one of ``MISBEHAVING``."""
    notebook = json.loads(_notebook("ada_full_marks", ASSIGNMENTS[0], tag))
    return json.dumps(with_answer(notebook, "softmax_naive", MISBEHAVING[kind])).encode()


def rush_plan(students: list[str], window: float, misbehaving: float = 0.0) -> list[tuple[str, str, str, float]]:
    """``(student, assignment, kind, second)`` per student: a class's mix over the four assignments,
    each uploading at a random second of the window; every ``1/misbehaving``-th student's notebook
    instead loops forever or hogs memory (in turn), spread over the rush."""
    every = round(1 / misbehaving) if misbehaving else 0
    kinds = list(MISBEHAVING)
    plan = []
    for index, student in enumerate(students):
        assignment, kind = ASSIGNMENTS[index % len(ASSIGNMENTS)], MIX[index % len(MIX)]
        if every and index % every == every // 2:
            assignment, kind = ASSIGNMENTS[0], kinds[(index // every) % len(kinds)]
        plan.append((student, assignment, kind, random.uniform(0, window)))
    return plan


def _request(url: str, token: str, body: bytes | None = None, content_type: str = "") -> dict:
    headers = {"Authorization": f"Bearer {token}"}
    if content_type:
        headers["Content-Type"] = content_type
    with urllib.request.urlopen(urllib.request.Request(url, data=body, headers=headers), timeout=120) as answer:
        return json.loads(answer.read())


def _submit_and_wait(base: str, token: str, assignment: str, content: bytes, poll: float | None) -> tuple[float, int]:
    """Seconds from the upload's start to "graded", and the submission's id; between polls,
    ``poll`` seconds, or (None) what the service asks for."""
    start = time.perf_counter()
    body, content_type = multipart({"assignment": assignment}, "notebook", f"{assignment}.ipynb", content)
    created = _request(f"{base}/api/v1/submissions", token, body, content_type)
    while (status := _request(f"{base}{created['status_url']}", token)).get("state") != "done":
        time.sleep(poll if poll is not None else float(status.get("poll_after", 1)))
    return time.perf_counter() - start, created["id"]


def _kind(process: psutil.Process) -> str:
    """The kind of a process of the service, for the peak memory table."""
    command = " ".join(process.cmdline())
    if "autograder.worker.forkserver" in command:
        parent = process.parent()
        if parent and "autograder.worker.forkserver" in " ".join(parent.cmdline()):
            # The shard (root) lives as long as its grading worker; a sandboxed worker (a user of its
            # own), one submission.
            return "grading shard" if process.uids().real == 0 else "sandboxed worker (one per notebook)"
        return "fork server"
    if "service worker" in command:
        return "grading worker"
    if "postgres" in process.name() or "postgres" in command.split(" ")[0]:
        return "PostgreSQL"
    if process.username() != "root" or process.uids().real != 0:
        return "web and passback sender (unprivileged)"
    return "serve (supervisor)"


class Service:
    """``serve`` in a scratch folder (and its scratch PostgreSQL); its processes watched."""

    def __init__(self, workers: int, database: str):
        self.root = Path(tempfile.mkdtemp(prefix="kit-bench-serve-"))
        self.root.chmod(0o755)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.postgres = None
        self.env = {**os.environ, "KIT_SERVICE_DATA": str(self.root / "data"), "KIT_SERVICE_BASE_URL": self.base}
        if database == "postgres":
            from tools.scratch_postgres import ScratchPostgres

            self.postgres = ScratchPostgres().start()
            self.env["KIT_SERVICE_DATABASE_URL"] = self.postgres.url
        self.process = subprocess.Popen([sys.executable, "-m", "autograder", "serve", "--port", str(self.port),
                                         "--workers", str(workers)], cwd=KIT_ROOT, env=self.env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        self.peaks: dict[str, int] = {}
        self.loads: list[float] = []
        self._stop = threading.Event()
        self._sampler = threading.Thread(target=self._sample, daemon=True)
        self._sampler.start()
        deadline = time.monotonic() + 180
        while not self._ready(workers):
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.close()
                raise SystemExit("the service did not start (run `python -m autograder serve` to see why)")
            time.sleep(0.5)

    def _ready(self, workers: int) -> bool:
        with contextlib.suppress(Exception):
            return len(self.query("SELECT 1 FROM service_gradingworker WHERE state = 'ready'")) >= workers
        return False

    def _tree(self) -> list[psutil.Process]:
        roots = [psutil.Process(self.process.pid)]
        if self.postgres is not None and self.postgres.pid is not None:
            roots.append(psutil.Process(self.postgres.pid))
        return [tree for root in roots for tree in (root, *root.children(recursive=True))]

    def _sample(self) -> None:
        while not self._stop.wait(0.25):
            self.loads.append(os.getloadavg()[0])
            try:
                tree = self._tree()
            except psutil.Error:
                continue
            for process in tree:
                try:
                    kind, rss = _kind(process), process.memory_info().rss
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
        if self.postgres is not None:
            import psycopg

            with psycopg.connect(self.postgres.url) as connection:
                return [tuple(str(value) if isinstance(value, datetime) else value for value in row)
                        for row in connection.execute(sql).fetchall()]
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
        if self.postgres is not None:
            self.postgres.stop()
        shutil.rmtree(self.root, ignore_errors=True)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def _seconds(text: str) -> float:
    return datetime.fromisoformat(str(text)).timestamp()


def _load() -> str:
    return ", ".join(f"{value:.2f}" for value in os.getloadavg())


def _rush(service: Service, tokens: dict[str, str], plan: list[tuple[str, str, str, float]],
          poll: float | None) -> tuple[list[tuple[float, int]], float, str, list[float]]:
    """Each student of ``plan`` uploads at their second and polls until graded: (latency, id) per
    student, the rush's seconds, and the load average when it began and (1 min) during it."""
    load_before = _load()
    loads_from = len(service.loads)
    rush_start = time.perf_counter()

    def one(item) -> tuple[float, int]:
        student, assignment, kind, at = item
        time.sleep(max(0.0, rush_start + at - time.perf_counter()))
        content = (_misbehaving_notebook(kind, student) if kind in MISBEHAVING else
                   _notebook(kind, assignment, student))
        return _submit_and_wait(service.base, tokens[student], assignment, content, poll)

    with concurrent.futures.ThreadPoolExecutor(max_workers=len(plan)) as pool:
        results = list(pool.map(one, plan))
    elapsed = time.perf_counter() - rush_start
    return results, elapsed, load_before, service.loads[loads_from:] or [os.getloadavg()[0]]


def _latencies(label: str, latencies: list[float]) -> str:
    return (f"  {label}: p50 {statistics.median(latencies):.2f} s, p95 {_percentile(latencies, 0.95):.2f} s,"
            f" max {max(latencies):.2f} s")


def _report_rush(service: Service, title: str, results: list[tuple[float, int]], elapsed: float, load_before: str,
                 during: list[float]) -> bool:
    """Print what the rush measured; whether every upload was stored and graded exactly once."""
    ids = ",".join(str(submission) for _, submission in results)
    stored = service.query(f"SELECT COUNT(*) FROM service_submission WHERE id IN ({ids})")[0][0]
    graded = service.query(f"SELECT submission_id, COUNT(*) FROM service_grading WHERE state = 'done' AND"
                           f" submission_id IN ({ids}) GROUP BY submission_id")
    once = sum(1 for _, count in graded if count == 1)
    per_worker = service.query(f"SELECT worker_id, COUNT(*), MIN(claimed_at), MAX(finished_at) FROM"
                               f" service_grading WHERE submission_id IN ({ids}) GROUP BY worker_id")
    print(f"\n{title}")
    print(f"  load average when it began: {load_before}; during it (1 min): mean {statistics.mean(during):.2f},"
          f" max {max(during):.2f} (the rush's own processes included)")
    print(f"  all graded after {elapsed:.1f} s; stored {stored}/{len(results)}, graded exactly once"
          f" {once}/{len(results)}")
    first = min(_seconds(start) for _, _, start, _ in per_worker)
    last = max(_seconds(end) for _, _, _, end in per_worker)
    print(f"  throughput: {len(results) / elapsed:.2f} notebooks/s over the rush; the graders'"
          f" {len(results) / (last - first):.2f} notebooks/s from the first claim to the last result")
    for worker, count, start, end in sorted(per_worker):
        print(f"  grading worker {worker}: {count} notebooks, {count / (_seconds(end) - _seconds(start)):.2f}"
              f" notebooks/s from its first claim to its last result")
    return stored == once == len(results)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--window", type=float, default=60.0, help="seconds over which the rush's uploads start")
    parser.add_argument("--warm", type=int, default=20, help="uploads, one at a time, for the warm latency")
    parser.add_argument("--workers", type=int, default=1, help="grading workers")
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--poll", type=float, default=None, help="seconds between a student's polls in the rush"
                        " (default: what the service asks for, as the queue page and the CI client do)")
    parser.add_argument("--misbehaving", type=float, default=0.05, help="the share of the mixed rush's students"
                        " whose notebook loops forever or hogs memory (0: no mixed rush)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    random.seed(args.seed)
    print(f"Load average (1, 5, 15 min) before starting: {_load()}, on {os.cpu_count()} CPUs")
    print(f"Starting the service ({args.workers} grading worker(s), {args.database}) on loopback ...", flush=True)
    started = time.perf_counter()
    service = Service(args.workers, args.database)
    try:
        print(f"ready in {time.perf_counter() - started:.1f} s (web, workers, start-up checks and canaries)")
        students = [f"bench{index:03d}" for index in range(args.students)]
        mixed_students = [f"mixed{index:03d}" for index in range(args.students)] if args.misbehaving else []
        tokens = service.tokens([*students, *mixed_students, "warm"])

        print(f"\nLoad average when the warm uploads began: {_load()}")
        warm = [_submit_and_wait(service.base, tokens["warm"], ASSIGNMENTS[0],
                                 _notebook("ada_full_marks", ASSIGNMENTS[0], f"warm{index}"), 0.02)[0]
                for index in range(args.warm + 2)][2:]  # the first two warm the web's caches
        print(f"Warm, one complete notebook at a time ({args.warm} uploads): upload to graded p50"
              f" {statistics.median(warm):.3f} s, p95 {_percentile(warm, 0.95):.3f} s, max {max(warm):.3f} s")

        polling = f"every {args.poll:g} s" if args.poll is not None else "as the service asks (poll_after)"
        results, elapsed, load_before, during = _rush(service, tokens, rush_plan(students, args.window), args.poll)
        whole = _report_rush(service, f"Rush: {len(students)} students, each uploading once within {args.window:g} s,"
                             f" polling {polling}", results, elapsed, load_before, during)
        print(_latencies("upload to graded", [latency for latency, _ in results]))

        if mixed_students:
            plan = rush_plan(mixed_students, args.window, args.misbehaving)
            results, elapsed, load_before, during = _rush(service, tokens, plan, args.poll)
            misbehaving = [latency for (_, _, kind, _), (latency, _) in zip(plan, results, strict=True)
                           if kind in MISBEHAVING]
            innocent = [latency for (_, _, kind, _), (latency, _) in zip(plan, results, strict=True)
                        if kind not in MISBEHAVING]
            whole &= _report_rush(service, f"Mixed rush: the same, by {len(mixed_students)} other students,"
                                  f" {len(misbehaving)} of whose notebooks loop forever or hog memory", results,
                                  elapsed, load_before, during)
            print(_latencies(f"upload to graded, the {len(innocent)} innocent students", innocent))
            print(_latencies(f"upload to graded, the {len(misbehaving)} looping or hogging notebooks", misbehaving))

        print("\nPeak memory (RSS) by process kind:")
        for kind, peak in sorted(service.peaks.items()):
            print(f"  {kind}: {peak / 2**20:.0f} MiB")
        return 0 if whole else 1
    finally:
        service.close()


if __name__ == "__main__":
    sys.exit(main())

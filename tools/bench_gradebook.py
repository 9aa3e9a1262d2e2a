"""``make bench-serve``'s class page: the instructor's matrix for a class of ``--students`` (1,000)
students x the four assignments, timed from the client's side on loopback.

It starts ``python -m autograder serve`` (no grading worker: nothing is graded here) in a scratch
data folder, on SQLite or a scratch PostgreSQL server, seeds the class with ``tools.seed_class``
(rows as the grading worker stores them), signs an instructor in, and requests the first page,
a page sorted by the total (descending), a page sorted by an assignment, and a filtered page,
``--repeat`` times each after one warm-up request: the median and the slowest of each are printed,
and the run fails when a median is over ``--goal`` ms (300). The very first request is timed
apart: it builds the matrix that each web process keeps until a submission, grading, adjustment,
policy or class list changes (``autograder/service/matrix.py``), which is what a page costs right
after a change.

    python -m tools.bench_gradebook [--students 1000] [--repeat 10] [--goal 300] [--database sqlite|postgres]
"""

from __future__ import annotations

import argparse
import contextlib
import re
import statistics
import subprocess
import sys
import time

import requests

from autograder.paths import KIT_ROOT
from autograder.student.curriculum import ASSIGNMENTS
from tools.bench_serve import Service

PAGES = {
    "first page": "",
    "sorted by total, descending": "?sort=total&order=desc",
    f"sorted by {ASSIGNMENTS[2]}, page 3": f"?sort={ASSIGNMENTS[2]}&order=asc&page=3",
    "filtered by a name (\"0042\")": "?q=0042",
}


def signed_in_instructor(service: Service) -> requests.Session:
    """A session signed in through the instructor's sign-in link, as a browser signs in (once the
    web process answers: with no grading worker, ``Service`` waits only for the database)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        with contextlib.suppress(requests.RequestException):
            if requests.get(f"{service.base}/", timeout=5).status_code == 200:
                break
        time.sleep(0.3)
    link = service.manage("instructor", "bench-teacher").strip().splitlines()[-1]
    session = requests.Session()
    page = session.get(link, timeout=30)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
    session.post(link, data={"csrfmiddlewaretoken": token}, headers={"Referer": link}, timeout=30).raise_for_status()
    return session


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--goal", type=float, default=300.0, help="the most milliseconds a page's median may take")
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    args = parser.parse_args(argv)
    service = Service(0, args.database)
    try:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "tools.seed_class", "--students", str(args.students)], cwd=KIT_ROOT,
                       env=service.env, check=True)
        print(f"\nClass page: {args.students} students x {len(ASSIGNMENTS)} assignments seeded in"
              f" {time.perf_counter() - started:.1f} s ({args.database}); each page {args.repeat} times after a"
              f" warm-up, from the client's side")
        session = signed_in_instructor(service)
        start = time.perf_counter()
        session.get(f"{service.base}/instructor/class", timeout=300).raise_for_status()
        print(f"  the first request, which builds the matrix (as after any change):"
              f" {time.perf_counter() - start:.2f} s")
        within = True
        for label, query in PAGES.items():
            url = f"{service.base}/instructor/class{query}"
            session.get(url, timeout=60).raise_for_status()
            times = []
            for _ in range(args.repeat):
                start = time.perf_counter()
                answer = session.get(url, timeout=60)
                times.append(1000 * (time.perf_counter() - start))
                answer.raise_for_status()
            median = statistics.median(times)
            within &= median <= args.goal
            print(f"  {label}: median {median:.0f} ms, slowest {max(times):.0f} ms"
                  f" ({len(answer.content) / 1024:.0f} KiB){'' if median <= args.goal else '  OVER THE GOAL'}")
        print(f"  goal: a median of at most {args.goal:g} ms per page: {'met' if within else 'NOT MET'}")
        return 0 if within else 1
    finally:
        service.close()


if __name__ == "__main__":
    sys.exit(main())

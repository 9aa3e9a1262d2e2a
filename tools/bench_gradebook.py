"""``make bench-serve``'s class page: the instructor's matrix for a class of ``--students`` (1,000)
students x the four assignments, timed from the client's side on loopback.

It starts ``python -m autograder serve`` (no grading worker: nothing is graded here) in a scratch
data folder, on SQLite or a scratch PostgreSQL server, seeds the class with ``tools.seed_class``
(rows as the grading worker stores them), signs an instructor in, and requests the first page,
a page sorted by the total (descending), a page sorted by an assignment, and a filtered page,
``--repeat`` times each after one warm-up request: the median and the slowest of each are printed,
and the run fails when a median is over ``--goal`` ms (300). The very first request is timed
apart: it builds the whole matrix, which each web process then keeps and updates
(``autograder/service/matrix.py``). Then the first page right after a change, ``--repeat`` times
for each kind: a new graded submission of a student (written through the ORM, as the grading
worker does) and an adjustment (``service adjust``); only the changed student's rows are read
again, and these medians are held to the goal too.

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

# A new submission of a student, graded (as the worker stores it), in the service's database.
GRADED = ("import os, random, sys; os.environ['DJANGO_SETTINGS_MODULE'] = 'autograder.service.settings'; import django;"
          " django.setup(); from django.contrib.auth import get_user_model; from django.utils import timezone;"
          " from autograder.service.models import Grading, Submission; from tools.seed_class import graded_row;"
          " user, assignment, now = get_user_model().objects.get(username=sys.argv[1]), sys.argv[2], timezone.now();"
          " made = Submission.objects.create(user=user, assignment_id=assignment, received_at=now, sha256='bench',"
          " size=2, filename=assignment + '.ipynb', notebook=b'{}'); row = graded_row(user.username, assignment, 0.9,"
          " random.Random(0)); Grading.objects.create(submission=made, state='done', queued_at=now, finished_at=now,"
          " row=row.to_json(), tests_score=row.tests_score)")

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
        print(f"  the first request, which builds the whole matrix (once per web process):"
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
        changes = {
            "a graded submission (ORM)": lambda student: subprocess.run(
                [sys.executable, "-c", GRADED, student, ASSIGNMENTS[1]], cwd=KIT_ROOT, env=service.env, check=True),
            "an adjustment (service adjust)": lambda student: service.manage(
                "adjust", student, ASSIGNMENTS[0], "1", "bench: a change"),
        }
        url = f"{service.base}/instructor/class"
        for label, change in changes.items():
            times = []
            for number in range(args.repeat):
                change(f"student{number * 7 % args.students:04d}")
                start = time.perf_counter()
                session.get(url, timeout=300).raise_for_status()
                times.append(1000 * (time.perf_counter() - start))
            median = statistics.median(times)
            within &= median <= args.goal
            print(f"  first page right after {label}: median {median:.0f} ms, slowest {max(times):.0f} ms"
                  f"{'' if median <= args.goal else '  OVER THE GOAL'}")
        print(f"  goal: a median of at most {args.goal:g} ms per page: {'met' if within else 'NOT MET'}")
        return 0 if within else 1
    finally:
        service.close()


if __name__ == "__main__":
    sys.exit(main())

"""Run a command as the first process of a fresh PID namespace, then report what it left running.

    unshare --pid --fork --mount-proc python contained_grading.py REPORT.json -- COMMAND...

Inside its own PID namespace (and with its own /proc) this script sees exactly the processes
that the command started, whatever else runs on the machine (another grading run, say), so
"nothing is left running" can be checked without false alarms. Whatever is still there when
the report is written is killed by the kernel as this script exits, so a failing check never
leaves a stray process behind. Without ``unshare`` it still works, but then sees every process.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time

# Late writers sleep a little before they write; give them that time to show themselves.
SETTLE_S = 1.5


def _reap() -> None:
    """Collect the zombies of processes that were orphaned onto this one."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass


def _processes() -> list[dict]:
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        if int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/status") as status:
                fields = dict(line.rstrip("\n").split(":\t", 1) for line in status if ":\t" in line)
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                command = cmdline.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue
        found.append({"pid": int(entry), "state": fields.get("State", "?"), "name": fields.get("Name", "?"),
                      "uid": int(fields.get("Uid", "-1").split()[0]), "command": command[:200]})
    return found


def main(argv: list[str]) -> int:
    report, separator, *command = argv
    if separator != "--" or not command:
        raise SystemExit("usage: contained_grading.py REPORT.json -- COMMAND...")
    started = time.monotonic()
    with open(report + ".stdout", "w") as stdout, open(report + ".stderr", "w") as stderr:
        returncode = subprocess.run(command, stdout=stdout, stderr=stderr, stdin=subprocess.DEVNULL).returncode
    elapsed = time.monotonic() - started
    time.sleep(SETTLE_S)
    _reap()
    in_own_namespace = os.getpid() == 1
    processes = _processes()
    if not in_own_namespace:  # the whole machine: only the workers' uids tell ours apart (roughly)
        from autograder.sandbox.layout import is_worker_uid

        processes = [p for p in processes if is_worker_uid(p["uid"]) or p["uid"] == 65534]
    leftovers = [p for p in processes if not p["state"].startswith("Z")]
    with open(report, "w") as handle:
        json.dump({"returncode": returncode, "elapsed_s": elapsed, "own_pid_namespace": in_own_namespace,
                   "leftovers": leftovers}, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

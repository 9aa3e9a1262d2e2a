"""``make gpu-check``: every GPU step of the kit, in one command, on a machine with CUDA.

1. ``nvidia-smi`` and what the fork server sees (torch's CUDA build, the driver, the devices);
2. ``python -m autograder doctor``: its verdict and the sandboxed worker's CUDA context;
3. the example class graded with ``--device cpu``, ``--device cuda`` and the default: the wall
   time and peak GPU memory of each, and whether the three ``grades.csv`` are identical;
4. the CUDA hidden tests on the solutions, the correct idioms and the mutant corpus
   (``pytest tests/test_on_gpu.py``);
5. from the class graded with ``--device cuda``: the float32 settings the references ran under
   (``fp32_precision``, ``allow_tf32``, the attention kernel) and the largest difference from the
   reference of each test on the GPU, against its float32 tolerance.

It prints a summary last and writes every log under ``--out``. Exit status 0 only when every
step passed. On a machine without CUDA it says so and exits 2.

    python -m autograder.tools.gpu_check [--out FOLDER]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

from autograder.notebooks.example_class import EXAMPLE_CLASS_DIR
from autograder.paths import KIT_ROOT
from autograder.worker.accelerators import machine_report

DEVICES = ("cpu", "cuda", "auto")


class GpuMemoryWatch:
    """The most GPU memory in use (MiB, every process) while the block runs, read from nvidia-smi."""

    def __init__(self):
        self.peak_mib = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self) -> GpuMemoryWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    def _watch(self) -> None:
        while not self._stop.wait(0.2):
            result = subprocess.run(["nvidia-smi", "--query-gpu=memory.used", "--format=csv,noheader,nounits"],
                                    capture_output=True, text=True)
            used = [int(line) for line in result.stdout.split() if line.strip().isdigit()]
            if used:
                self.peak_mib = max(self.peak_mib, sum(used))


def _run(command: list[str], log: Path) -> subprocess.CompletedProcess:
    result = subprocess.run(command, capture_output=True, text=True, cwd=KIT_ROOT)
    log.write_text(f"$ {' '.join(command)}\n{result.stdout}\n{result.stderr}\nexit {result.returncode}\n")
    return result


def float32_report(out: Path) -> dict:
    """The float32 settings a graded run's references ran under, and the largest difference of each
    test instance on the GPU over the class (and the tolerance it is held to: float32's rtol 1e-4
    and atol 1e-5, on every device)."""
    settings, largest = {}, {}
    for results in sorted(out.glob("results/*/*.json")):
        document = json.loads(results.read_text())
        settings = document.get("float32_settings") or settings
        for test in document.get("tests", []):
            difference = test.get("largest_difference")
            if "cuda" in test["name"] and difference is not None:
                largest[test["name"]] = max(difference, largest.get(test["name"], 0.0))
    return {"settings": settings, "largest_difference_per_test": dict(sorted(largest.items())),
            "largest_difference": max(largest.values(), default=None)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder.tools.gpu_check", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=KIT_ROOT / "gpu-check", help="where the logs go")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    machine = machine_report()
    print(json.dumps(machine, indent=1))
    if not machine["accelerators"]["cuda"]:
        print(f"No usable CUDA here: {machine['cuda_problem']}")
        return 2
    summary: dict[str, object] = {"machine": machine}
    if shutil.which("nvidia-smi"):
        summary["nvidia-smi"] = _run(["nvidia-smi"], args.out / "nvidia-smi.log").stdout[-2000:]
    doctor = _run([sys.executable, "-m", "autograder", "doctor"], args.out / "doctor.log")
    summary["doctor"] = {"exit": doctor.returncode, "lines": doctor.stdout.splitlines()[-14:]}
    grades = {}
    for device in DEVICES:
        out = args.out / f"grades-{device}"
        shutil.rmtree(out, ignore_errors=True)
        started = time.monotonic()
        with GpuMemoryWatch() as memory:
            result = _run([sys.executable, "-m", "autograder", "grade", str(EXAMPLE_CLASS_DIR), "--out", str(out),
                           "--jobs", "2", "--device", device], args.out / f"grade-{device}.log")
        summary[f"grade --device {device}"] = {"exit": result.returncode, "peak_gpu_mib": memory.peak_mib,
                                               "wall_s": round(time.monotonic() - started, 1)}
        grades[device] = (out / "grades.csv").read_text() if (out / "grades.csv").is_file() else None
    summary["float32 on cuda"] = float32_report(args.out / "grades-cuda")
    identical = len(set(grades.values())) == 1 and None not in grades.values()
    summary["grades.csv identical on cpu, cuda and auto"] = identical
    tests = _run([sys.executable, "-m", "pytest", "tests/test_on_gpu.py", "-p", "no:cacheprovider", "-q", "-rs"],
                 args.out / "test_on_gpu.log")
    summary["pytest tests/test_on_gpu.py"] = {"exit": tests.returncode, "tail": tests.stdout.splitlines()[-8:]}
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps(summary, indent=1))
    passed = (doctor.returncode == 0 and tests.returncode == 0 and identical
              and all(summary[f"grade --device {device}"]["exit"] == 0 for device in DEVICES))
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())

"""``make fuzz``: the fuzz tests of tests/fuzz/ in rounds with fresh seeds, for as long as asked;
prints how many examples each input was fuzzed with, and stops at the first failure.

    python tests/fuzz/run_fuzz.py --minutes 30
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="how long to fuzz (default 30)")
    parser.add_argument("--examples", type=int, default=300, help="examples per input and round (default 300)")
    parser.add_argument("--classes", type=int, default=6, help="whole classes graded per round (default 6)")
    args = parser.parse_args()
    ends = time.monotonic() + args.minutes * 60
    counts = Path(tempfile.mkdtemp(prefix="attention-kit-fuzz-")) / "counts.json"
    environment = {**os.environ, "HYPOTHESIS_PROFILE": "fuzz", "FUZZ_EXAMPLES": str(args.examples),
                   "FUZZ_CLASSES": str(args.classes), "FUZZ_COUNTS": str(counts)}
    rounds = 0
    while time.monotonic() < ends:
        seed = random.SystemRandom().randrange(2**32)
        rounds += 1
        print(f"round {rounds} (seed {seed}), {max(0, ends - time.monotonic()) / 60:.1f} minutes left", flush=True)
        try:
            result = subprocess.run([sys.executable, "-m", "pytest", str(HERE), "-q", "-x", "-p", "no:cacheprovider",
                                     f"--hypothesis-seed={seed}"], env=environment,
                                    timeout=max(60.0, ends - time.monotonic() + 600))
        except subprocess.TimeoutExpired:
            print("a round ran far past the time given; stopping", flush=True)
            return 1
        if result.returncode != 0:
            print(f"a fuzz test failed (seed {seed}); rerun it with --hypothesis-seed={seed} and make the example a"
                  " regular test", flush=True)
            return 1
    tried = json.loads(counts.read_text()) if counts.exists() else {}
    print(f"\n{rounds} rounds in {args.minutes:g} minutes, no failure. Examples tried per input:")
    for name, count in tried.items():
        print(f"  {count:8d}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

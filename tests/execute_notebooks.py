"""Execute notebooks with the interpreter that runs this script (a student's environment).

    <python> execute_notebooks.py JOBS.json

JOBS.json lists ``{"notebook": ..., "cwd": ...}``; each notebook is run top to bottom in a kernel
of this environment, started in ``cwd``, and written back in place with its outputs (errors are
recorded, not raised). It imports only nbformat and nbclient: it runs where the kit is absent.
"""

from __future__ import annotations

import asyncio
import json
import sys

import nbformat
from nbclient import NotebookClient

TIMEOUT_S = 1800  # a cell's backstop against a hung kernel, not a speed check (as kit_notebooks.py)
AT_ONCE = 2  # kernels at a time: the machines that run the kit's tests have two cores


async def _run(job: dict, slots: asyncio.Semaphore) -> None:
    async with slots:
        notebook = nbformat.read(job["notebook"], as_version=4)
        client = NotebookClient(notebook, timeout=TIMEOUT_S, kernel_name="python3", allow_errors=True,
                                resources={"metadata": {"path": job["cwd"]}})
        await client.async_execute()
        nbformat.write(notebook, job["notebook"])


async def _run_all(jobs: list[dict]) -> None:
    slots = asyncio.Semaphore(AT_ONCE)
    await asyncio.gather(*(_run(job, slots) for job in jobs))


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as handle:
        asyncio.run(_run_all(json.load(handle)))

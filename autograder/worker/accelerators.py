"""What this machine offers torch, found without initialising CUDA, and a CUDA context per process.

The fork server reports ``machine_report`` in its hello, so the grader knows which devices to
test before any shard exists; every shard and worker then makes its own context
(``open_cuda_context``) before any test's or student's clock starts (see ``worker.nvidia`` for why
no process that forks may initialise CUDA).
"""

from __future__ import annotations

import time
from dataclasses import asdict

import torch

from autograder.worker.nvidia import CudaContext, cuda_driver_problem, nvidia_driver


def machine_report() -> dict:
    """What this machine offers torch, found without initialising CUDA: the accelerators it could
    use, torch's version, CUDA build and CPU kernels, the NVIDIA driver and, when CUDA cannot be
    used, why."""
    driver = nvidia_driver()
    problem = cuda_driver_problem(driver, torch.version.cuda)
    return {"accelerators": {"cuda": not problem, "mps": torch.backends.mps.is_available()},
            "torch": torch.__version__, "cuda_build": torch.version.cuda,
            "cpu_capability": torch.backends.cpu.get_cpu_capability(),
            "driver": asdict(driver) if driver else None, "cuda_problem": problem}


def open_cuda_context(memory_fraction: float | None = None) -> CudaContext:
    """Make this process's CUDA context now (torch makes it lazily, at the first use), and cap what
    its caching allocator may take of the device (``memory_fraction``). Raises RuntimeError (or
    torch's AcceleratorError) when CUDA cannot be used."""
    started = time.monotonic()
    torch.cuda.init()
    torch.empty(1, device="cuda")
    torch.cuda.synchronize()
    if memory_fraction is not None:
        torch.cuda.set_per_process_memory_fraction(memory_fraction)
    free, total = torch.cuda.mem_get_info()
    return CudaContext(torch.cuda.get_device_name(), round(time.monotonic() - started, 3), total, total - free)

"""What a worker may use and see: the settings the trusted grader sends with every worker request."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass
class SandboxConfig:
    """What one worker may use and see. Sizes in bytes, times in seconds."""

    memory_bytes: int = 4 * 2**30
    cpu_seconds: int = 600
    max_processes: int = 64
    max_file_bytes: int = 64 * 2**20
    max_open_files: int = 256
    tmp_bytes: int = 64 * 2**20
    threads: int = 1
    uid: int | None = None  # run as this uid and gid (the grader is root)
    hide_paths: list[str] = field(default_factory=list)
    keep_paths: list[str] = field(default_factory=list)  # stay visible, read-only, inside hidden ones
    cgroups: list[str] = field(default_factory=list)  # the run's cgroups, one per hierarchy (worker.cgroups)
    cgroup_problem: str = ""  # why there are none, when there are none
    tmp_inodes: int = 10_000  # files and folders a scratch tmpfs may hold
    scratch_root: str | None = None  # where a worker without namespaces makes its scratch folder (the run's own)
    # CUDA: the worker makes its context before any student code runs (``worker.accelerators``),
    # may open these device nodes read-write with ioctls, gets no address-space limit (the memory
    # cgroup limits it), and its allocator may take this fraction of the device's memory.
    cuda: bool = False
    device_nodes: list[str] = field(default_factory=list)
    gpu_memory_fraction: float | None = None
    environment: dict[str, str] = field(default_factory=dict)  # CUDA_VISIBLE_DEVICES and the like

    def to_dict(self) -> dict:
        return asdict(self)

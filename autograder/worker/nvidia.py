"""The NVIDIA driver, as NVML sees it: no CUDA context is made, so a process that asks may fork.

A process that has initialised CUDA cannot give it to the children it forks (their first
``.to("cuda")`` raises "Cannot re-initialize CUDA in forked subprocess"), and
``torch.cuda.is_available()`` initialises the driver. So the processes that fork ask NVML, the
driver's management library: the driver's version, the devices ``CUDA_VISIBLE_DEVICES`` leaves
visible, and the device nodes a CUDA worker must be allowed to open. This module imports no
torch: the grading command, which never does, uses it too.
"""

from __future__ import annotations

import ctypes
import os
import stat
from dataclasses import asdict, dataclass
from pathlib import Path

NVML_LIBRARY = "libnvidia-ml.so.1"
# The variables that say which devices CUDA may use; kept for the fork server and the workers.
CUDA_ENVIRONMENT = ("CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER")
# The oldest driver each CUDA major version runs on (NVIDIA's CUDA toolkit release notes, "minor
# version compatibility"): torch's wheels on PyPI for CUDA 13 need 580 or newer.
MINIMUM_DRIVER = {11: (450, 80, 2), 12: (525, 60, 13), 13: (580, 65, 6)}
# Where the NVIDIA driver's device nodes live (nvidia0..N, nvidiactl, nvidia-uvm, nvidia-caps/...).
DEVICE_FOLDER = "/dev"


@dataclass(frozen=True)
class NvidiaDriver:
    """What NVML says: the driver's version and the devices CUDA_VISIBLE_DEVICES leaves visible."""

    version: str
    devices: int  # visible to CUDA in this environment
    all_devices: int  # on the machine


def nvidia_driver(library: str = NVML_LIBRARY, environ: dict | None = None) -> NvidiaDriver | None:
    """The NVIDIA driver, read through NVML; None where there is none (no library, or NVML fails)."""
    try:
        nvml = ctypes.CDLL(library)
    except OSError:
        return None
    if nvml.nvmlInit_v2() != 0:
        return None
    try:
        version = ctypes.create_string_buffer(96)
        count = ctypes.c_uint(0)
        if nvml.nvmlSystemGetDriverVersion(version, ctypes.c_uint(len(version))) != 0 \
                or nvml.nvmlDeviceGetCount_v2(ctypes.byref(count)) != 0:
            return None
    finally:
        nvml.nvmlShutdown()
    visible = (os.environ if environ is None else environ).get("CUDA_VISIBLE_DEVICES")
    return NvidiaDriver(version.value.decode(errors="replace"), visible_devices(count.value, visible), count.value)


def visible_devices(physical: int, visible: str | None) -> int:
    """How many of ``physical`` devices CUDA uses under ``CUDA_VISIBLE_DEVICES=visible``.

    As CUDA reads it: unset means all; otherwise a comma-separated list of indices or UUIDs
    (``GPU-...``, ``MIG-...``) that ends at the first entry that names no device, or repeats one.
    """
    if visible is None:
        return physical
    seen: set[str] = set()
    for entry in (item.strip() for item in visible.split(",")):
        is_index = entry.isdigit() and int(entry) < physical
        if not (is_index or entry.startswith(("GPU-", "MIG-"))) or entry in seen:
            break
        seen.add(entry)
    return len(seen)


def cuda_driver_problem(driver: NvidiaDriver | None, cuda_build: str | None) -> str:
    """Why torch cannot use CUDA with this driver ('' when nothing is known to be wrong)."""
    if cuda_build is None:
        return "this torch was built without CUDA (a CPU build)"
    if driver is None:
        return f"no NVIDIA driver was found ({NVML_LIBRARY} cannot be loaded or initialised)"
    major = int(cuda_build.split(".")[0])
    needed = MINIMUM_DRIVER.get(major)
    if needed and _version_tuple(driver.version) < needed:
        return (f"torch is built for CUDA {cuda_build}, which needs an NVIDIA driver {'.'.join(map(str, needed))}"
                f" or newer; this machine has {driver.version}. Update the driver, or install a torch built for an"
                " older CUDA (see pytorch.org), or grade with --device cpu")
    if driver.devices == 0:
        return ("CUDA_VISIBLE_DEVICES leaves no device visible" if driver.all_devices else
                "the driver reports no NVIDIA device")
    return ""


def _version_tuple(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split(".") if part.isdigit())


def nvidia_device_nodes(folder: str = DEVICE_FOLDER) -> list[str]:
    """The NVIDIA driver's character devices: what a CUDA worker must open read-write and drive
    with ioctls (nvidiactl, nvidia0..N, nvidia-uvm, nvidia-uvm-tools, nvidia-caps/...)."""
    root = Path(folder)
    candidates = [*root.glob("nvidia*"), *root.glob("nvidia-caps/*")]
    return sorted(str(path) for path in candidates if _is_character_device(path))


def _is_character_device(path: Path) -> bool:
    try:
        return stat.S_ISCHR(path.stat().st_mode)
    except OSError:
        return False


@dataclass(frozen=True)
class CudaContext:
    """A CUDA context made in this process: how long it took and the device's memory then."""

    device: str
    seconds: float
    total_bytes: int
    used_bytes: int  # by every process on the device, this one's context included

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: object) -> CudaContext | None:
        """A worker's report of its context (None when there is none, or it is not one)."""
        if not isinstance(data, dict):
            return None
        try:
            return cls(str(data["device"])[:200], float(data["seconds"]), int(data["total_bytes"]),
                       int(data["used_bytes"]))
        except (KeyError, TypeError, ValueError):
            return None

"""The CUDA mechanisms, shown as far as a machine without a GPU can show them.

- No process that forks ever initialises CUDA: the fork server learns what the machine offers
  from NVML (here a stand-in library built from C), never from torch.cuda.
- Landlock admits the NVIDIA device nodes read-write with ioctls, and nothing else: a node made
  with mknod at the NVIDIA major number opens with ENXIO (no driver behind it), not EACCES.
- A CUDA worker gets no address-space limit (its memory cgroup limits it), and says so where
  there is no cgroup; a worker that cannot make its context is the grader's failure.
- A CUDA error in a student's probe costs that probe only: the next gets a fresh worker.
- GPU instances of a test carry no points, so a notebook scores the same with or without a GPU,
  and only their float32 instances run: float64 on the GPU shows nothing new.
"""

from __future__ import annotations

import errno
import importlib.machinery
import importlib.util
import json
import os
import resource
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch

from autograder.findings.finding import finding
from autograder.grading import dependencies
from autograder.grading.engine import score_outcomes
from autograder.grading.merge import MergeError, merge_shards
from autograder.grading.outputs import write_shard_record
from autograder.grading.shard import pytest_args
from autograder.notebooks.example_class import EXAMPLE_CLASS_DIR
from autograder.paths import KIT_ROOT
from autograder.probes.client import Submission
from autograder.probes.errors import SandboxError, StudentError
from autograder.reading.notebook import extract_definitions
from autograder.records.jobs import TestOutcome
from autograder.records.results import TestStatus
from autograder.sandbox import layout
from autograder.sandbox.forkserver import ForkServer
from autograder.sandbox.layout import MANUAL_SLOT, standard_sandbox, with_cuda, worker_uid
from autograder.sandbox.session import ForkServerChannel, WorkerSession
from autograder.worker import accelerators, confinement, fake_gpu, landlock, nvidia, warmup
from autograder.worker.config import SandboxConfig
from autograder.worker.isolation import Layer

NVIDIA_MAJOR = 195  # the character-device major of nvidia0..N and nvidiactl

# A stand-in for the driver's NVML library: the calls and signatures nvidia.nvidia_driver makes.
FAKE_NVML = r"""
#include <string.h>
int nvmlInit_v2(void) { return 0; }
int nvmlShutdown(void) { return 0; }
int nvmlSystemGetDriverVersion(char *version, unsigned int length) {
    strncpy(version, DRIVER, length); return 0;
}
int nvmlDeviceGetCount_v2(unsigned int *count) { *count = DEVICES; return 0; }
"""


def _fake_nvml(tmp_path: Path, driver: str, devices: int) -> str:
    if shutil.which("gcc") is None:
        pytest.skip("gcc is needed to build a stand-in NVML library")
    source = tmp_path / "nvml.c"
    source.write_text(FAKE_NVML)
    library = tmp_path / f"libnvidia-ml-{driver}-{devices}.so"
    subprocess.run(["gcc", "-shared", "-fPIC", f'-DDRIVER="{driver}"', f"-DDEVICES={devices}", "-o", str(library),
                    str(source)], check=True)
    return str(library)


def test_the_driver_is_read_through_nvml_with_the_visible_devices(tmp_path):
    library = _fake_nvml(tmp_path, "580.95.05", 4)
    assert nvidia.nvidia_driver(library, {}) == nvidia.NvidiaDriver("580.95.05", 4, 4)
    assert nvidia.nvidia_driver(library, {"CUDA_VISIBLE_DEVICES": "2,0"}).devices == 2
    assert nvidia.nvidia_driver(library, {"CUDA_VISIBLE_DEVICES": "1,7,2"}).devices == 1  # stops at 7
    assert nvidia.nvidia_driver(library, {"CUDA_VISIBLE_DEVICES": ""}).devices == 0
    assert nvidia.nvidia_driver(library, {"CUDA_VISIBLE_DEVICES": "-1"}).devices == 0
    assert nvidia.nvidia_driver(library, {"CUDA_VISIBLE_DEVICES": "GPU-8f3e,1"}).devices == 2
    assert nvidia.nvidia_driver(str(tmp_path / "absent.so")) is None


def test_a_driver_older_than_the_torch_build_is_named():
    old = nvidia.NvidiaDriver("550.54.14", 1, 1)
    problem = nvidia.cuda_driver_problem(old, "13.0")
    assert "580.65.6 or newer" in problem
    assert "550.54.14" in problem
    assert "--device cpu" in problem
    assert nvidia.cuda_driver_problem(nvidia.NvidiaDriver("580.95.05", 1, 1), "13.0") == ""
    assert nvidia.cuda_driver_problem(nvidia.NvidiaDriver("535.104.05", 1, 1), "12.4") == ""
    assert "CPU build" in nvidia.cuda_driver_problem(old, None)
    assert "no NVIDIA driver" in nvidia.cuda_driver_problem(None, "13.0")
    assert "leaves no device" in nvidia.cuda_driver_problem(nvidia.NvidiaDriver("580.95.05", 0, 2), "13.0")


def test_the_fork_server_learns_of_cuda_without_initialising_it(tmp_path, monkeypatch):
    """What the fork server reports comes from NVML and torch's build; every torch.cuda call that
    would initialise CUDA (and so break it in every forked child) fails this test if made."""
    library = _fake_nvml(tmp_path, "580.95.05", 1)

    def initialises_cuda(*args, **kwargs):
        raise AssertionError("CUDA was initialised in a process that forks")

    for name in ("is_available", "device_count", "init", "_lazy_init", "current_device", "get_device_name"):
        monkeypatch.setattr(torch.cuda, name, initialises_cuda)
    monkeypatch.setattr(torch._C, "_cuda_getDeviceCount", initialises_cuda, raising=False)
    monkeypatch.setattr(torch.version, "cuda", "13.0")
    monkeypatch.setattr(accelerators, "nvidia_driver", lambda: nvidia.nvidia_driver(library, {}))
    report = accelerators.machine_report()
    assert report["accelerators"]["cuda"] is True
    assert report["driver"] == {"version": "580.95.05", "devices": 1, "all_devices": 1}
    assert not torch.cuda.is_initialized()


def test_no_process_that_forks_calls_torch_cuda():
    """The fork server, its warm-up and the in-process floor ask only ``machine_report``."""
    for module in ("autograder/worker/forkserver.py", "autograder/worker/warmup.py", "tools/inprocess.py",
                   "tools/bench.py", "autograder/sandbox/forkserver.py"):
        source = (KIT_ROOT / module).read_text(encoding="utf-8")
        code = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith("#"))
        assert "torch.cuda." not in code, module


@pytest.mark.parametrize("cuda_may_follow", [False, True])
def test_the_warm_up_steps_that_start_cuda_are_left_to_the_forked_children(monkeypatch, cuda_may_follow):
    """On a CUDA build, autograd's first backward pass and the stand-in GPU's first use start
    CUDA's driver (measured on an H200: every forked worker then failed to make its context). With
    an NVIDIA driver here, the fork server leaves them to each child, which runs them once forked."""
    def warm_up_then_child() -> int:
        calls = {"backward": 0, "stand-in": 0}
        real_backward = torch.Tensor.backward

        def backward(tensor, *args, **kwargs):
            calls["backward"] += 1
            return real_backward(tensor, *args, **kwargs)

        monkeypatch.setattr(torch.Tensor, "backward", backward)
        monkeypatch.setattr(fake_gpu, "warm_up", lambda: calls.__setitem__("stand-in", calls["stand-in"] + 1))
        warmup.warm_up_torch(cuda_may_follow=cuda_may_follow)
        in_server = calls["backward"] + calls["stand-in"]
        warmup.warm_up_after_fork()
        in_child = calls["backward"] + calls["stand-in"] - in_server
        return 10 * bool(in_server) + bool(in_child) if calls["stand-in"] == 1 else -1

    assert _in_a_child(warm_up_then_child) == (1 if cuda_may_follow else 10)


def test_landlock_lets_a_cuda_worker_write_under_proc_and_a_cpu_worker_not(tmp_path):
    """CUDA's driver writes under /proc (an H200 answered error 304 under Landlock without it). The
    worker stays root here (no uid of its own), so the file's mode allows the write and Landlock
    alone decides."""
    if os.geteuid() != 0:
        pytest.skip("confining a worker as the grader does needs root")
    if landlock.abi_version() < 1:
        pytest.skip("no Landlock in this kernel")

    def write_own_comm(cuda: bool) -> int:
        confinement.confine(SandboxConfig(cuda=cuda, hide_paths=[str(tmp_path)]))
        try:
            with open("/proc/self/comm", "w") as comm:
                comm.write("worker")
        except OSError as error:
            return error.errno
        return 0

    assert _in_a_child(lambda: write_own_comm(True)) == 0
    assert _in_a_child(lambda: write_own_comm(False)) == errno.EACCES


def test_the_workers_see_the_folder_torch_comes_from(monkeypatch):
    """A venv over a GPU image's Python (a .pth file naming the image's site-packages) finds
    torch outside every prefix: the sandbox keeps that folder visible too."""
    found = importlib.util.find_spec

    def elsewhere(name, *args):
        if name == "torch":
            return importlib.machinery.ModuleSpec("torch", None, origin="/opt/image/site-packages/torch/__init__.py")
        return found(name, *args)

    monkeypatch.setattr(layout.importlib.util, "find_spec", elsewhere)
    assert "/opt/image/site-packages" in layout.python_paths()
    assert sys.prefix in layout.python_paths() or os.path.realpath(sys.prefix) in layout.python_paths()


def test_the_fork_server_hello_reports_the_machine():
    server = ForkServer()
    try:
        machine = server.machine
    finally:
        server.close()
    assert machine["torch"] == torch.__version__
    assert machine["accelerators"] == {"cuda": False, "mps": False}
    assert machine["cuda_problem"]  # this machine has no GPU, and says why


def _in_a_child(action) -> int:
    """Run ``action()`` in a forked child and return the int it writes back (an errno, say)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            result = action()
        except BaseException:  # noqa: BLE001 - the child must write back and exit, whatever happened
            result = -1
        os.write(write, str(result).encode())
        os._exit(0)
    os.close(write)
    os.waitpid(pid, 0)
    with os.fdopen(read) as pipe:
        return int(pipe.read() or -1)


def _nvidia_node(tmp_path: Path) -> Path:
    if os.geteuid() != 0:
        pytest.skip("mknod needs root")
    if landlock.abi_version() < 1:
        pytest.skip("no Landlock in this kernel")
    node = tmp_path / "nvidia0"
    try:
        os.mknod(node, 0o666 | 0o020000, os.makedev(NVIDIA_MAJOR, 0))
    except OSError as error:
        pytest.skip(f"cannot make a device node here ({error.strerror})")
    return node


def _open_after_restrict(node: Path, devices: list[str]) -> int:
    def attempt() -> int:
        landlock.restrict(list(confinement.SYSTEM_READ_ONLY), [], devices=devices)
        try:
            os.close(os.open(node, os.O_RDWR))
        except OSError as error:
            return error.errno
        return 0
    return _in_a_child(attempt)


def test_landlock_admits_the_nvidia_device_nodes_and_nothing_else(tmp_path):
    node = _nvidia_node(tmp_path)
    assert nvidia.nvidia_device_nodes(str(tmp_path)) == [str(node)]
    assert _open_after_restrict(node, [str(node)]) == errno.ENXIO  # allowed: no driver answers here
    assert _open_after_restrict(node, []) == errno.EACCES  # not listed: Landlock refuses


def test_a_cuda_sandbox_opens_the_device_nodes_and_keeps_cuda_visible_devices(monkeypatch):
    monkeypatch.setattr("autograder.sandbox.layout.nvidia_device_nodes", lambda: ["/dev/nvidiactl", "/dev/nvidia0"])
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "1")
    sandbox = with_cuda(standard_sandbox(worker_uid(MANUAL_SLOT), []), slots=4)
    assert sandbox.cuda
    assert sandbox.device_nodes == ["/dev/nvidiactl", "/dev/nvidia0"]
    assert sandbox.environment == {"CUDA_VISIBLE_DEVICES": "1"}
    assert sandbox.gpu_memory_fraction == pytest.approx(0.2)


@pytest.mark.parametrize("cuda", [False, True])
def test_a_cuda_worker_has_no_address_space_limit(cuda):
    def limit() -> int:
        confinement._set_limits(SandboxConfig(cuda=cuda), count_processes=False)
        return resource.getrlimit(resource.RLIMIT_AS)[0]
    assert (_in_a_child(limit) == resource.RLIM_INFINITY) is cuda


def test_a_cuda_worker_without_cgroups_says_it_has_no_memory_limit(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("confining a worker as the grader does needs root")

    def missing() -> int:
        config = SandboxConfig(cuda=True, uid=worker_uid(MANUAL_SLOT), hide_paths=[str(tmp_path)])
        isolation = confinement.confine(config).isolation
        return int(any(layer is Layer.MEMORY_LIMIT for layer, _ in isolation.missing))
    assert _in_a_child(missing) == 1


@pytest.fixture(scope="module")
def channel():
    server = ForkServer()
    yield ForkServerChannel(server.control(0))
    server.close()


def test_a_worker_that_cannot_make_its_cuda_context_is_the_graders_failure(channel, tmp_path):
    """On this machine CUDA cannot be used: a CUDA worker refuses before any student code runs."""
    sandbox = SandboxConfig(**{**standard_sandbox(worker_uid(MANUAL_SLOT), [str(tmp_path)]).to_dict(), "cuda": True})
    worker = WorkerSession(channel, extract_definitions({"cells": []}), sandbox, timeout=5)
    with pytest.raises(SandboxError, match="CUDA cannot be used in the sandbox"):
        worker.start()


CUDA_FAILURE = textwrap.dedent('''
    import torch

    def assert_on_device():
        raise torch.AcceleratorError("CUDA error: device-side assert triggered")

    def twice(x):
        return 2 * x
''')


def test_a_cuda_error_costs_only_its_probe(channel, tmp_path):
    code = extract_definitions({"cells": [{"cell_type": "code", "source": CUDA_FAILURE}]})
    worker = WorkerSession(channel, code, standard_sandbox(worker_uid(MANUAL_SLOT), [str(tmp_path)]), timeout=5)
    ready = worker.start()
    student = Submission(worker, ready.defined, ready.load_problems, ready.isolation)
    try:
        first = worker.generation
        with pytest.raises(StudentError, match="device-side assert"):
            student.call("assert_on_device")
        assert torch.equal(student.call("twice", torch.ones(2)), torch.full((2,), 2.0))
        assert worker.generation == first + 1  # a fresh worker answered
    finally:
        worker.close()


def _outcome(device: str, status: TestStatus, function: str = "test_softmax_naive") -> TestOutcome:
    return TestOutcome(f"{function}[{device}]", function, "softmax_naive", status,
                       None if status is TestStatus.PASSED else finding("no_message", stage="softmax_naive"), device)


def test_gpu_instances_carry_no_points():
    on_cpu = [_outcome("cpu", TestStatus.PASSED)] * 2
    with_gpu = on_cpu + [_outcome("cuda", TestStatus.FAILED)] * 2
    without, scored = score_outcomes("01_attention_scores", on_cpu), score_outcomes("01_attention_scores", with_gpu)
    assert sum(t.points for t in scored) == sum(t.points for t in without) == sum(t.max_points for t in without)
    assert [t.max_points for t in scored[2:]] == [0.0, 0.0]


def test_a_gpu_runs_float32_instances_only_and_the_cpu_every_dtype():
    collected = []

    class Collected:
        def pytest_collection_finish(self, session):
            collected.extend(item.nodeid for item in session.items)

    args = pytest_args({"01_attention_scores"}, ["cpu", "cuda"]) + ["--collect-only"]
    assert pytest.main(args, plugins=[Collected()]) == 0
    on_cuda = [test for test in collected if "[cuda-" in test]
    assert on_cuda
    assert all("float32" in test for test in on_cuda)
    assert any("[cpu-float64" in test for test in collected)
    assert not any("[mps-" in test for test in collected)


def test_a_gpu_only_failure_does_not_void_behaviour_checks():
    outcomes = [_outcome("cpu", TestStatus.PASSED), _outcome("cuda", TestStatus.FAILED),
                _outcome("cpu", TestStatus.PASSED, "test_behaviour")]
    counted = dependencies.counted_behaviour_checks(outcomes, {"test_behaviour"})
    assert counted[2].status is TestStatus.PASSED


@pytest.fixture(scope="module")
def graded_example_class(tmp_path_factory) -> Path:
    """The example class's first notebooks, graded by the real command (here: on the CPU only)."""
    out = tmp_path_factory.mktemp("graded") / "out"
    result = subprocess.run([sys.executable, "-m", "autograder", "grade", str(EXAMPLE_CLASS_DIR), "--out", str(out),
                             "--assignment", "01_attention_scores"], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    return out


def _shard_with_devices(source: Path, target: Path, shard: tuple[int, int], devices: list[str]) -> Path:
    shutil.copytree(source, target)
    write_shard_record(target, shard, devices)
    return target


@pytest.mark.slow
def test_merge_refuses_shards_graded_on_different_devices(graded_example_class, tmp_path):
    cpu = _shard_with_devices(graded_example_class, tmp_path / "cpu-node", (1, 2), ["cpu"])
    gpu = _shard_with_devices(graded_example_class, tmp_path / "gpu-node", (2, 2), ["cpu", "cuda"])
    with pytest.raises(MergeError, match=r"different devices .*cpu-node: cpu; .*gpu-node: cpu\+cuda"):
        merge_shards([cpu, gpu], tmp_path / "merged")
    assert not (tmp_path / "merged" / "grades.csv").exists()


def test_every_results_file_records_the_devices_tested(graded_example_class):
    files = list((graded_example_class / "results").glob("*/*.json"))
    assert files
    assert all(json.loads(path.read_text())["devices"] == ["cpu"] for path in files)


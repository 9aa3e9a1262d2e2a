"""The sandboxed worker for real: probes, timeouts that kill, crashes that restart."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest
import torch

from autograder.probes.client import Submission
from autograder.probes.errors import GraderOverloaded, ProbeTimeout, SandboxError, StudentError, WorkerCrashed
from autograder.reading.notebook import extract_definitions
from autograder.sandbox import session as worker_session
from autograder.sandbox.forkserver import ForkServer
from autograder.sandbox.layout import MANUAL_SLOT, standard_sandbox, worker_uid
from autograder.sandbox.session import ForkServerChannel, WorkerSession
from autograder.worker import cgroups
from autograder.worker.protocol import ForeignValue, Seeded

STUDENT_CODE = '''
import os
import time
import torch

def softmax(x, dim=-1):
    return torch.exp(x) / torch.exp(x).sum(dim=dim, keepdim=True)

def nearly_too_slow(x):
    time.sleep(1.5)
    return x

def spin():
    while True:
        pass

def leave():
    os._exit(3)

def fail():
    raise ValueError("p must be in [0, 1]")

def draw(shape, generator=None):
    return torch.rand(shape, generator=generator)

def subclass(x):
    class Sneaky(torch.Tensor):
        pass
    return x.as_subclass(Sneaky)

def fork_and_linger():
    if os.fork() == 0:
        os.setsid()
        time.sleep(60)
        os._exit(0)
    return 1

def can_see(path):
    return os.path.exists(path)

def read(path):
    try:
        with open(path) as handle:
            return handle.read()
    except OSError as error:
        return type(error).__name__

def write_shared_memory(mib):
    """Memory no address-space limit counts, page by page: memfds (of 32 MiB, under the file-size
    limit) written a MiB at a time."""
    fds = []
    for written in range(mib):
        if written % 32 == 0:
            fds.append(os.memfd_create("written"))
        os.write(fds[-1], b"x" * 2**20)
    return mib

def hoard_shared_memory(gib):
    """Memory no address-space limit counts: a memfd's pages."""
    fd = os.memfd_create("hoard")
    os.posix_fallocate(fd, 0, gib << 30)
    return os.fstat(fd).st_size

class Tiny(torch.nn.Module):
    def __init__(self, d_in):
        super().__init__()
        self.W = torch.nn.Linear(d_in, 2, bias=False)

    def forward(self, x):
        return self.W(x)
'''


@pytest.fixture(scope="module")
def forkserver():
    server = ForkServer()
    yield ForkServerChannel(server.control(0))
    server.close()


@pytest.fixture
def session(forkserver, tmp_path):
    code = extract_definitions({"cells": [{"cell_type": "code", "source": STUDENT_CODE}]})
    worker = WorkerSession(forkserver, code, standard_sandbox(worker_uid(MANUAL_SLOT), [str(tmp_path)]), timeout=2)
    ready = worker.start()
    yield worker, Submission(worker, ready.defined, ready.load_problems, ready.isolation)
    worker.close()


def _running_as(uid: int, zombies: bool = False) -> list[int]:
    pids = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/status") as status:
                fields = dict(line.split(":", 1) for line in status)
            if int(fields["Uid"].split()[0]) == uid and (zombies or fields["State"].split()[0] != "Z"):
                pids.append(int(entry))
        except (FileNotFoundError, ProcessLookupError):
            continue
    return pids


def test_a_probe_returns_plain_tensors(session):
    _, student = session
    x = torch.randn(2, 3, dtype=torch.float64)
    result = student.call("softmax", x, dim=0)
    assert type(result) is torch.Tensor
    torch.testing.assert_close(result, torch.softmax(x, dim=0))


def test_a_seeded_generator_gives_the_same_draw(session):
    _, student = session
    first = student.call("draw", (3, 4), generator=Seeded(7))
    assert torch.equal(first, student.call("draw", (3, 4), generator=Seeded(7)))


def test_each_probe_starts_from_the_same_seed_and_two_calls_in_one_draw_on(session):
    _, student = session
    alone = student.call("draw", (3, 4))
    assert torch.equal(alone, student.call("draw", (3, 4)))  # every probe starts from PROBE_SEED
    first, second = student.call_twice("draw", (3, 4))
    assert torch.equal(first, alone)
    assert not torch.equal(first, second)


def test_a_tensor_subclass_does_not_cross_as_a_tensor(session):
    _, student = session
    assert student.call("subclass", torch.ones(2)) == ForeignValue("Sneaky")


def test_a_module_is_built_moved_and_given_weights_in_one_probe(session):
    _, student = session
    weights = {"W.weight": torch.arange(6.0, dtype=torch.float64).view(2, 3)}
    module, description = student.build_module("Tiny", (3,), {}, device="cpu", dtype=torch.float64,
                                               weights=weights)
    assert description["parameters"] == {"W.weight": [[2, 3], "cpu"]}
    assert module.describe()["training"] is False
    result = module(torch.ones(1, 3, dtype=torch.float64))
    assert result.tolist() == [[3.0, 12.0]]
    # Parameters of other shapes are described and left alone: the test reports the mismatch.
    module, description = student.build_module("Tiny", (4,), {}, device="cpu", dtype=torch.float64,
                                               weights=weights)
    assert description["parameters"]["W.weight"][0] == [2, 4]
    assert module.describe()["training"] is True


def test_student_exceptions_come_back_as_data(session):
    _, student = session
    with pytest.raises(StudentError, match=r"p must be in \[0, 1\]") as caught:
        student.call("fail")
    assert caught.value.type_name == "ValueError"


def test_an_endless_loop_is_killed_and_the_worker_restarts(session):
    worker, student = session
    generation = worker.generation
    with pytest.raises(ProbeTimeout):
        student.call("spin")
    assert student.call("softmax", torch.zeros(2)).tolist() == [0.5, 0.5]
    assert worker.generation == generation + 1


def test_an_exit_costs_only_that_probe(session):
    _, student = session
    with pytest.raises(WorkerCrashed):
        student.call("leave")
    assert student.call("softmax", torch.zeros(4)).sum().item() == pytest.approx(1.0)


@pytest.mark.skipif(os.geteuid() != 0, reason="the per-user sweep needs the grader to run as root")
def test_nothing_a_worker_started_survives_it(session):
    worker, student = session
    assert student.call("fork_and_linger") == 1
    worker.close()
    assert _running_as(worker_uid(MANUAL_SLOT)) == []


def test_closing_without_waiting_keeps_few_handles_and_leaves_nothing_running(session):
    """The grader closes workers without waiting, then waits for them all at the end."""
    worker, student = session
    for _ in range(12):
        assert student.call("fork_and_linger") == 1  # restarts the worker after each close
        worker.close(wait=False)
        assert len(worker_session._killed) <= 2  # exited workers are forgotten as it goes
    worker_session.wait_for_killed_workers()
    assert worker_session._killed == []
    assert _running_as(worker_uid(MANUAL_SLOT), zombies=True) == []  # none is left for PID 1 to reap


def test_the_kit_and_the_submissions_are_out_of_sight(session, tmp_path):
    from autograder.paths import SOLUTIONS_DIR

    _, student = session
    (tmp_path / "other_student.ipynb").write_text("{}")
    assert student.call("can_see", str(SOLUTIONS_DIR)) is False
    assert student.call("can_see", str(tmp_path / "other_student.ipynb")) is False


def test_a_sandbox_that_cannot_be_built_is_the_graders_error(forkserver, tmp_path):
    a_file = tmp_path / "not-a-folder"
    a_file.write_text("x")
    code = extract_definitions({"cells": []})
    worker = WorkerSession(forkserver, code, standard_sandbox(worker_uid(MANUAL_SLOT), [str(a_file)]), timeout=2)
    if os.geteuid() != 0:
        pytest.skip("without root the fallback may not mount at all")
    with pytest.raises(SandboxError, match="sandbox could not be set up"):
        worker.start()


def test_a_python_installation_under_tmp_stays_visible(forkserver, tmp_path):
    """A kit cloned into /tmp keeps its venv visible although the worker gets a fresh /tmp."""
    kept = tmp_path / "venv-like"
    kept.mkdir()
    (kept / "module.py").write_text("x = 1\n")
    (tmp_path / "other.txt").write_text("not for the worker")
    sandbox = standard_sandbox(worker_uid(MANUAL_SLOT), [])
    sandbox.keep_paths.append(str(kept))
    code = extract_definitions({"cells": [{"cell_type": "code", "source": STUDENT_CODE}]})
    worker = WorkerSession(forkserver, code, sandbox, timeout=5)
    ready = worker.start()
    try:
        student = Submission(worker, ready.defined, ready.load_problems, ready.isolation)
        assert student.call("can_see", str(kept / "module.py")) is True
        assert student.call("can_see", str(tmp_path / "other.txt")) is False
    finally:
        worker.close()


def _started(forkserver, sandbox, timeout: float = 5) -> tuple[WorkerSession, Submission]:
    code = extract_definitions({"cells": [{"cell_type": "code", "source": STUDENT_CODE}]})
    worker = WorkerSession(forkserver, code, sandbox, timeout=timeout)
    ready = worker.start()
    return worker, Submission(worker, ready.defined, ready.load_problems, ready.isolation)


needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="uids of its own, keyrings and cgroups need a root grader")


@needs_root
def test_a_file_directly_under_the_root_is_out_of_sight(session):
    _, student = session
    secret = Path(f"/attention-kit-test-secret-{os.getpid()}.txt")
    secret.write_text("the answer key")
    try:
        assert "answer key" not in student.call("read", str(secret))
    finally:
        secret.unlink()


# As a worker's uid: leave a key in its user keyring, or list what that keyring holds.
_KEYRING = textwrap.dedent("""
    import ctypes, os, sys
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    os.setgid(int(sys.argv[1])); os.setuid(int(sys.argv[1]))
    USER_KEYRING, KEYCTL_READ = -4, 11
    if sys.argv[2] == "leave":
        note = b"for the next student"
        assert libc.syscall(248, b"user", b"note", note, len(note), USER_KEYRING) > 0, ctypes.get_errno()
    else:
        buffer = ctypes.create_string_buffer(4096)
        print(libc.syscall(250, KEYCTL_READ, USER_KEYRING, buffer, 4096))  # bytes of key ids it holds
""")


def _user_keyring(uid: int, action: str) -> str:
    return subprocess.run([sys.executable, "-c", _KEYRING, str(uid), action], capture_output=True, text=True,
                          check=True).stdout.strip()


@needs_root
def test_a_key_left_by_one_student_is_gone_when_the_next_starts(forkserver, tmp_path):
    uid = worker_uid(MANUAL_SLOT)
    _user_keyring(uid, "leave")
    assert _user_keyring(uid, "list") == "4"  # one key id
    worker, _ = _started(forkserver, standard_sandbox(uid, [str(tmp_path)]))
    try:
        assert _user_keyring(uid, "list") == "0"
    finally:
        worker.close()


@pytest.fixture
def run_cgroups():
    if os.geteuid() != 0:
        pytest.skip("cgroups are made by a root grader")
    try:
        groups = cgroups.make_run_groups(f"attention-kit-{os.getpid()}")  # as the grader names them
    except OSError as error:
        pytest.skip(f"no cgroups can be made here ({error})")
    yield groups
    for group in groups:
        cgroups.remove([*map(str, Path(group).glob("worker-*")), group])


def test_memory_outside_the_address_space_costs_only_the_worker(forkserver, tmp_path, run_cgroups):
    sandbox = dataclasses.replace(standard_sandbox(worker_uid(MANUAL_SLOT), [str(tmp_path)], memory_bytes=2**30),
                                  cgroups=run_cgroups)
    worker, student = _started(forkserver, sandbox, timeout=20)
    try:
        assert "cgroups" in [layer.value for layer in student.isolation.layers]
        own = [Path(group) for group in run_cgroups for group in Path(group).glob("worker-*")]
        assert own, "the worker made no cgroup of its own"
        before = psutil.virtual_memory().used
        with pytest.raises((WorkerCrashed, StudentError)):  # killed by the kernel, or refused the memory
            student.call("hoard_shared_memory", 3)
        assert psutil.virtual_memory().used - before < 2**30  # nothing held beyond the worker's own limit
        assert student.call("softmax", torch.zeros(2)).tolist() == [0.5, 0.5]  # a fresh worker
    finally:
        worker.close()
    assert not [group for group in run_cgroups for group in Path(group).glob("worker-*")]  # removed with it


def test_a_worker_killed_at_its_own_memory_limit_is_told_so(forkserver, tmp_path, run_cgroups):
    sandbox = dataclasses.replace(standard_sandbox(worker_uid(MANUAL_SLOT), [str(tmp_path)], memory_bytes=2**29),
                                  cgroups=run_cgroups)
    worker, student = _started(forkserver, sandbox, timeout=20)
    try:
        with pytest.raises(WorkerCrashed) as killed:
            student.call("write_shared_memory", 2048)
        assert killed.value.finding.key == "memory_limit"
        assert killed.value.finding.fields["limit"] == "512 MiB"
    finally:
        worker.close()


def test_a_worker_killed_for_memory_others_used_is_the_graders_problem(forkserver, tmp_path, run_cgroups):
    """The container (here a group around the worker's, of 300 MiB) runs out of memory while the
    worker is within its own 2 GiB: not the student's doing, so never the student's failure."""
    memory_group = next(Path(group) for group in run_cgroups if "memory" in group or len(run_cgroups) == 1)
    container = memory_group / "attention-kit-1"
    container.mkdir()
    for limit in ("memory.limit_in_bytes", "memory.memsw.limit_in_bytes", "memory.max"):
        if (container / limit).is_file():
            (container / limit).write_text(str(300 * 2**20))
    others = [group for group in run_cgroups if Path(group) != memory_group]
    sandbox = dataclasses.replace(standard_sandbox(worker_uid(MANUAL_SLOT), [str(tmp_path)], memory_bytes=2**31),
                                  cgroups=[str(container), *others])
    worker, student = _started(forkserver, sandbox, timeout=20)
    try:
        with pytest.raises(GraderOverloaded, match="within its own limit"):
            student.call("write_shared_memory", 600)
        assert student.call("softmax", torch.zeros(2)).tolist() == [0.5, 0.5]  # a fresh worker
    finally:
        worker.close()
        cgroups.remove([*map(str, container.glob("worker-*")), str(container)])


def test_many_answers_just_under_the_limit_stop_at_the_notebooks_budget(forkserver, tmp_path):
    """One test that asks many times, each answer just under the 2 s limit: no answer is waited for
    past the notebook's budget (5 s here), so the notebook holds its job slot for its budget and
    one limit at most, and the student is told why."""
    code = extract_definitions({"cells": [{"cell_type": "code", "source": STUDENT_CODE}]})
    worker = WorkerSession(forkserver, code, standard_sandbox(worker_uid(MANUAL_SLOT), [str(tmp_path)]), timeout=2,
                           budget=5)
    ready = worker.start()
    student = Submission(worker, ready.defined, ready.load_problems, ready.isolation)
    def ask_ten_times() -> None:  # 15 s of answers, were each one waited for
        for _ in range(10):
            student.call("nearly_too_slow", torch.zeros(1))

    started = time.monotonic()
    try:
        with pytest.raises(ProbeTimeout) as stopped:
            ask_ten_times()
        assert stopped.value.finding.key in ("notebook_budget_spent", "notebook_budget")
        assert time.monotonic() - started <= 5 + 3
        with pytest.raises(ProbeTimeout) as refused:  # and nothing more is asked of it
            student.call("softmax", torch.zeros(2))
        assert refused.value.finding.key == "notebook_budget"
    finally:
        worker.close()


# A token kept in the worker process's environment: the same in two notebooks only if one process served both.
WHERE = "def where():\n    import os\n    return os.environ.setdefault('WORKER_TOKEN', os.urandom(8).hex())\n"


def _notebook(source: str):
    return extract_definitions({"cells": [{"cell_type": "code", "source": source}]})


def test_a_students_notebooks_share_one_worker_in_namespaces_of_their_own(forkserver, tmp_path):
    """One worker start per student, not per notebook: the second notebook is loaded into the same
    worker, without the first's definitions; another student gets a worker of their own."""
    from autograder.records.jobs import PreparedSubmission
    from autograder.sandbox.opener import SandboxedOpener

    opener = SandboxedOpener(forkserver, standard_sandbox(worker_uid(MANUAL_SLOT), [str(tmp_path)]), timeout=5,
                             budget=30)
    first = _notebook(WHERE + "\ndef only_in_the_first():\n    return 1\n")
    second = _notebook(WHERE)
    pids = {}
    try:
        for key, student, code in (("ada-1", "ada", first), ("ada-2", "ada", second), ("bo-1", "bo", first)):
            with opener(PreparedSubmission(len(pids), student, "01_attention_scores", code)) as submission:
                pids[key] = submission.call("where")
                assert submission.has("only_in_the_first") is (key != "ada-2")
    finally:
        opener.finish()
    assert pids["ada-1"] == pids["ada-2"]
    assert pids["bo-1"] != pids["ada-1"]


def test_a_students_next_notebook_gets_a_fresh_worker_after_a_crash(forkserver, tmp_path):
    from autograder.records.jobs import PreparedSubmission
    from autograder.sandbox.opener import SandboxedOpener

    opener = SandboxedOpener(forkserver, standard_sandbox(worker_uid(MANUAL_SLOT), [str(tmp_path)]), timeout=5)
    crashing = _notebook("import os\n\n" + WHERE + "\ndef leave():\n    os._exit(3)\n")
    try:
        with opener(PreparedSubmission(0, "ada", "01_attention_scores", crashing)) as submission:
            before = submission.call("where")
            with pytest.raises(WorkerCrashed):
                submission.call("leave")
        with opener(PreparedSubmission(1, "ada", "02_self_attention", _notebook(STUDENT_CODE + WHERE))) as submission:
            assert submission.call("softmax", torch.zeros(2)).tolist() == [0.5, 0.5]
            assert submission.call("where") != before
    finally:
        opener.finish()

"""Uploads over the cap are refused before they are read (autograder/service/web/bounded_requests.py).

Twenty 400 MB uploads at once, each body made chunk by chunk as it is sent (never held whole), by
a signed-in student through the page's form, by a CI job with its API token, and by nobody at all
with a made-up CSRF cookie and form token; once with a Content-Length, once chunked. While they
run, the web processes' memory and the files they write are measured: each process stays within
the cap plus a small constant, nothing reaches the disk, every upload is answered (or its
connection closed) after little of its body was sent, all within a bound in time, and the
service still answers afterwards with nothing stored."""

from __future__ import annotations

import http.client
import os
import secrets
import shutil
import stat
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest
import requests
from service_harness import LiveService

A01 = "01_attention_scores"
CAP_MB = 5
CAP = CAP_MB * 2**20
BODY = 400 * 2**20  # each upload's notebook
CHUNK = 2**20
PARALLEL = 20
# What a web process may grow by while uploads run: the cap (a chunked body is held up to it) and
# a small constant: gunicorn's reads of a chunked body (up to 1 MiB each, and their copies) and the
# allocator's slack after them, measured at 15 to 19 MiB; never in proportion to the body.
RSS_ALLOWANCE = CAP + 32 * 2**20
# What each upload may get sent before the server closes on it: the cap, and the kernel's socket
# buffers on loopback; far below the 400 MB of the body.
SENT_ALLOWANCE = CAP + 32 * 2**20
ROUND_SECONDS = 60


@dataclass
class Sent:
    kind: str
    status: int | None  # None: the connection was closed before an answer could be read
    sent: int
    seconds: float


def _multipart(boundary: str, fields: dict[str, str]) -> tuple[bytes, bytes]:
    """The body's start (the form's fields, the file's header) and its end, around the notebook."""
    head = b"".join(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
                    for name, value in fields.items())
    head += (f'--{boundary}\r\nContent-Disposition: form-data; name="notebook"; filename="{A01}.ipynb"\r\n'
             "Content-Type: application/octet-stream\r\n\r\n").encode()
    return head, f"\r\n--{boundary}--\r\n".encode()


def _body(head: bytes, tail: bytes):
    """The upload's bytes, one chunk at a time: never more than a chunk of the notebook in memory."""
    yield head
    filler = b" " * CHUNK
    for _ in range(BODY // CHUNK):
        yield filler
    yield tail


def _upload(service, kind: str, path: str, headers: dict[str, str], fields: dict[str, str], chunked: bool) -> Sent:
    boundary = secrets.token_hex(12)
    head, tail = _multipart(boundary, fields)
    connection = http.client.HTTPConnection("127.0.0.1", service.port, timeout=ROUND_SECONDS)
    started, sent, status = time.monotonic(), 0, None
    try:
        connection.putrequest("POST", path)
        for name, value in {**headers, "Content-Type": f"multipart/form-data; boundary={boundary}"}.items():
            connection.putheader(name, value)
        if chunked:
            connection.putheader("Transfer-Encoding", "chunked")
        else:
            connection.putheader("Content-Length", str(len(head) + BODY + len(tail)))
        connection.endheaders()
        try:
            for piece in _body(head, tail):
                connection.send(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
                sent += len(piece)
            if chunked:
                connection.send(b"0\r\n\r\n")
        except OSError:  # the server answered and closed: read its answer, if it is still there
            pass
        try:
            status = connection.getresponse().status
        except (OSError, http.client.HTTPException):
            status = None
    finally:
        connection.close()
    return Sent(kind, status, sent, time.monotonic() - started)


class Watcher:
    """Samples the web processes' memory and the files they hold or wrote, until stopped."""

    def __init__(self, service, folders: list[Path]):
        self.service, self.folders = service, folders
        self.baseline = {process.pid: process.memory_info().rss for process in service.web_processes()}
        self.peak_growth = 0
        self.peak_disk = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Watcher:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.is_set():
            self._sample()
            time.sleep(0.05)

    def _sample(self) -> None:
        processes = self.service.web_processes()
        typical = sorted(self.baseline.values())[len(self.baseline) // 2]
        disk = sum(path.stat().st_size for folder in self.folders for path in folder.rglob("*") if path.is_file())
        for process in processes:
            try:
                growth = process.memory_info().rss - self.baseline.get(process.pid, typical)
                disk += _held_temporary_bytes(process.pid, self.folders, self.service.data)
            except (psutil.Error, OSError):  # a worker that stopped meanwhile
                continue
            self.peak_growth = max(self.peak_growth, growth)
        self.peak_disk = max(self.peak_disk, disk)


def _held_temporary_bytes(pid: int, folders: list[Path], data: Path) -> int:
    """Bytes of the regular files a process holds open in the temporary folders, anywhere in /tmp
    but its data folder (the report's fonts live there), or already deleted (a deleted temporary
    file still fills the disk)."""
    total = 0
    for descriptor in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(descriptor)
            info = descriptor.stat()
        except OSError:
            continue
        deleted = target.endswith(" (deleted)")
        inside = any(target.startswith(f"{folder}/") for folder in folders) or (
            target.startswith("/tmp/") and not target.startswith(f"{data}/"))
        if (deleted or inside) and stat.S_ISREG(info.st_mode):
            total += info.st_size
    return total


@pytest.fixture(scope="module")
def service():
    """A service whose temporary folder is its own (TMPDIR), so that what it writes there is counted."""
    temp = Path(tempfile.mkdtemp(prefix="kit-upload-test-tmp-"))
    temp.chmod(0o1777)  # whoever the web runs as may write there, as in /tmp
    live = LiveService(workers=0, max_upload_mb=str(CAP_MB), environment={"TMPDIR": str(temp)})
    live.temp = temp
    try:
        yield live.start(wait_for_worker=False)
    finally:
        live.close()
        shutil.rmtree(temp, ignore_errors=True)


@pytest.mark.live
@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_twenty_uploads_of_400_mb_at_once_are_refused_before_they_are_read(service, chunked):
    student = service.signed_in("big")
    jar = requests.utils.dict_from_cookiejar(student.cookies)
    cookies = "; ".join(f"{name}={value}" for name, value in jar.items())
    api_token = service.cli("token", "big").stdout.strip()
    made_up = secrets.token_hex(16)  # a CSRF cookie and form token of nobody's, equal as Django checks
    referer = {"Referer": f"{service.url}/assignments/{A01}"}
    kinds = {
        "session": (f"/assignments/{A01}/upload", {"Cookie": cookies, **referer},
                    {"csrfmiddlewaretoken": jar["csrftoken"]}),
        "api token": ("/api/v1/submissions", {"Authorization": f"Bearer {api_token}"}, {"assignment": A01}),
        "no account": (f"/assignments/{A01}/upload", {"Cookie": f"csrftoken={made_up}", **referer},
                       {"csrfmiddlewaretoken": made_up}),
    }
    stored = service.submissions()
    folders = [service.temp, service.data / "tmp"]
    started = time.monotonic()
    with Watcher(service, folders) as watcher, ThreadPoolExecutor(PARALLEL) as pool:
        plan = [list(kinds)[index % len(kinds)] for index in range(PARALLEL)]
        results = list(pool.map(lambda kind: _upload(service, kind, *kinds[kind], chunked=chunked), plan))
    elapsed = time.monotonic() - started
    print(f"\n{'chunked' if chunked else 'content-length'}: {PARALLEL} uploads of {BODY / 2**20:g} MB in"
          f" {elapsed:.1f} s; web process peak RSS growth {watcher.peak_growth / 2**20:.1f} MiB (cap {CAP_MB} MiB);"
          f" peak temporary bytes on disk {watcher.peak_disk / 2**20:.1f} MiB; most sent by one upload"
          f" {max(result.sent for result in results) / 2**20:.1f} MiB;"
          f" answers {sorted({str(result.status) for result in results})}")
    assert elapsed < ROUND_SECONDS
    for result in results:
        assert result.status in (413, None), result
        assert result.sent < SENT_ALLOWANCE, result
    assert any(result.status == 413 for result in results)  # the refusal reaches clients that read it
    assert watcher.peak_growth <= RSS_ALLOWANCE
    assert watcher.peak_disk <= CAP
    assert service.submissions() == stored
    assert requests.get(service.url + "/", timeout=30).status_code == 200

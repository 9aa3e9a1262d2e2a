"""A transport that answers probes in the calling process, for the benchmark's floor only.

It runs student code in the same process as the tests, so it offers no isolation at all:
the grader never uses it. It still round-trips every message through bytes, so probes
behave exactly as they do over the sandboxed worker's socket.
"""

from __future__ import annotations

import torch

from autograder.notebooks.reading import ExtractedCode
from autograder.probes.client import Submission
from autograder.worker.probe_server import ProbeServer, load_definitions
from autograder.worker.protocol import Message, pack, unpack


class InProcessTransport:
    """Runs the probe server on the caller's thread; see the module docstring."""

    generation = 0

    def __init__(self, server: ProbeServer):
        self._server = server

    def request(self, header: dict, tensors: dict[str, torch.Tensor]) -> Message:
        reply_header, reply_tensors = self._server.handle(unpack(pack(header, tensors)))
        return unpack(pack(reply_header, reply_tensors))


def open_in_process(code: ExtractedCode) -> Submission:
    """A Submission whose definitions run in this very process (no sandbox)."""
    blocks = [vars(block) for block in code.blocks]
    namespace, problems = load_definitions(blocks)
    server = ProbeServer(namespace)
    defined = {name for name in namespace if not name.startswith("__")}
    return Submission(InProcessTransport(server), defined, code.problems + problems)

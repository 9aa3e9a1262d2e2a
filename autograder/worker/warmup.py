"""torch's first-call costs, paid once before forking rather than in every child.

The first meta-device ``triu``, say, imports ``torch._dynamo`` (about a second), and the first
backward pass starts autograd's machinery. The fork server pays these before forking workers,
and the grader before forking its shards, so no worker or shard pays them on a test's clock.

Two of them start CUDA's driver on a CUDA build of torch: autograd's first backward pass asks the
driver how many devices there are, and the stand-in GPU's first use asks ``torch.cuda``. A child
forked after that cannot use CUDA at all (an H200 answered "initialization error" in every
worker). On a machine with an NVIDIA driver they are left to each forked process
(``warm_up_after_fork``): a worker once it is confined and its own CUDA context is made, before
any student code runs; a shard before its first test.
"""

from __future__ import annotations

import torch

from autograder.worker import fake_gpu, protocol

# The warm-up steps that start CUDA's driver, when the fork server left them to its children.
_left_for_after_fork: list = []


def warm_up_torch(cuda_may_follow: bool = False) -> None:
    """Run, once, the kinds of operations the hidden tests and the probes use, on every device kind.

    One thread only: a process that forks must not start thread pools its children would lose.
    ``cuda_may_follow`` (an NVIDIA driver is here): the steps that would start CUDA's driver are
    left for ``warm_up_after_fork``.
    """
    torch.set_num_threads(1)
    for device in ("cpu", "meta"):  # the hidden tests check every module on `meta` too
        layer = torch.nn.Linear(4, 4).to(device)
        x = torch.randn(2, 3, 4, requires_grad=True, device=device)
        future = torch.ones(3, 3, dtype=torch.bool, device=device).triu(diagonal=1)
        scores = (layer(x) @ x.transpose(1, 2) / 2.0).masked_fill(future, -torch.inf)
        weights = torch.nn.functional.dropout(torch.softmax(scores, dim=-1), p=0.1)
        merged = weights.view(2, 3, 3, 1).transpose(1, 2).contiguous().reshape(2, 9)
        if not cuda_may_follow:
            merged.backward(torch.ones_like(merged))
        torch.ones(3, 3, dtype=torch.bool, device=device).tril().triu(diagonal=1)
        torch.rand(3, 3, device=device).masked_fill(future, 0.0).sum(dim=-1, keepdim=True)
    if cuda_may_follow:
        _left_for_after_fork.extend([_first_backward, fake_gpu.warm_up])
    else:
        fake_gpu.warm_up()  # the device checks' stand-in GPU: about 1.5 s and 80 MB, once
    encoder = protocol.Encoder()
    header = {"value": encoder.encode([weights, torch.float64, 1.5])}
    protocol.unpack(protocol.pack(header, encoder.tensors))


def _first_backward() -> None:
    x = torch.ones(2, 3, requires_grad=True)
    (x * 2.0).sum().backward()


def warm_up_after_fork() -> None:
    """In a forked child, the warm-up steps its fork server left to it (none on a machine
    without an NVIDIA driver)."""
    while _left_for_after_fork:
        _left_for_after_fork.pop(0)()

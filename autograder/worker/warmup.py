"""torch's first-call costs, paid once before forking rather than in every child.

The first meta-device ``triu``, say, imports ``torch._dynamo`` (about a second), and the first
backward pass starts autograd's machinery. The fork server pays these before forking workers,
and the grader before forking its shards, so no worker or shard pays them on a test's clock.
"""

from __future__ import annotations

import torch

from autograder.worker import fake_gpu, protocol


def warm_up_torch() -> None:
    """Run, once, the kinds of operations the hidden tests and the probes use, on every device kind.

    One thread only: a process that forks must not start thread pools its children would lose.
    """
    torch.set_num_threads(1)
    for device in ("cpu", "meta"):  # the hidden tests check every module on `meta` too
        layer = torch.nn.Linear(4, 4).to(device)
        x = torch.randn(2, 3, 4, requires_grad=True, device=device)
        future = torch.ones(3, 3, dtype=torch.bool, device=device).triu(diagonal=1)
        scores = (layer(x) @ x.transpose(1, 2) / 2.0).masked_fill(future, -torch.inf)
        weights = torch.nn.functional.dropout(torch.softmax(scores, dim=-1), p=0.1)
        merged = weights.view(2, 3, 3, 1).transpose(1, 2).contiguous().reshape(2, 9)
        merged.backward(torch.ones_like(merged))
        torch.ones(3, 3, dtype=torch.bool, device=device).tril().triu(diagonal=1)
        torch.rand(3, 3, device=device).masked_fill(future, 0.0).sum(dim=-1, keepdim=True)
    fake_gpu.warm_up()  # the device checks' stand-in GPU: about 1.5 s and 80 MB, once
    encoder = protocol.Encoder()
    header = {"value": encoder.encode([weights, torch.float64, 1.5])}
    protocol.unpack(protocol.pack(header, encoder.tensors))

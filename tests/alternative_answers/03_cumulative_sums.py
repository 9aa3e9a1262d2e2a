"""Running means from cumulative sums and row-normalised triangles (F.normalize with p=1), a
mask made by comparing index vectors, dropout with a draw per element and torch.where."""

import torch
import torch.nn.functional as F


def causal_average_loop(x):
    counts = torch.arange(1, x.shape[1] + 1, dtype=x.dtype, device=x.device)
    return x.cumsum(dim=1) / counts[None, :, None]


def causal_average_matmul(x):
    num_tokens = x.shape[1]
    lower = torch.ones(num_tokens, num_tokens, dtype=x.dtype, device=x.device).tril()
    return F.normalize(lower, p=1, dim=1) @ x


def causal_mask(num_tokens, device=None):
    rows = torch.arange(num_tokens, device=device).view(-1, 1)
    cols = torch.arange(num_tokens, device=device).view(1, -1)
    return cols > rows


def mask_and_renormalize(attn_weights):
    return F.normalize(attn_weights.tril(), p=1, dim=-1)


def inverted_dropout(x, p, training=True, generator=None):
    if not (0 <= p <= 1):
        raise ValueError(f"invalid dropout probability: {p}")
    if not training or p == 0:
        return x
    if p == 1:
        return x.new_zeros(x.shape)
    draws = torch.rand(x.shape, generator=generator, device=x.device, dtype=x.dtype)
    return torch.where(draws < p, torch.zeros_like(x), x / (1 - p))

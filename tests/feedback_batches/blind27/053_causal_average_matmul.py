import torch


def causal_average_matmul(x):
    """Prefix mean as one matrix product with a row-normalised lower triangle.

    x: (B, T, C) -> (B, T, C)
    """
    T = x.shape[-2]
    w = torch.triu(torch.ones(T, T, device=x.device, dtype=x.dtype))
    w = w / w.sum(-1, keepdim=True)
    return x @ w

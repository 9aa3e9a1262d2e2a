import torch


def causal_average_matmul(x):
    """Prefix mean as one matrix product with a row-normalised lower triangle."""
    T = x.shape[1]
    tri = torch.tril(torch.ones(T, T, dtype=x.dtype, device=x.device))
    tri = tri / tri.sum(dim=0, keepdim=True)
    return tri @ x

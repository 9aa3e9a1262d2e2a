import torch


def causal_average_matmul(x):
    """Prefix mean as one matrix product with a row-normalised lower triangle."""
    T = x.shape[1]
    rows, cols = torch.tril_indices(T, T, device=x.device)  # every (t, s) with s <= t
    weights = torch.zeros(T, T, dtype=x.dtype, device=x.device)
    weights[rows, cols] = 1.0 / (rows + 1).to(x.dtype)  # row t: 1/(t+1) on columns 0..t
    return weights @ x

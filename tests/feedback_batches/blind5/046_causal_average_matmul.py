import torch


def causal_average_matmul(x):
    """Prefix mean as one matrix product with a row-normalised lower triangle."""
    T = x.shape[-2]
    i = torch.arange(T, device=x.device)
    keep = (i[None, :] <= i[:, None]).to(x.dtype)          # (T, T) lower triangle
    wei = keep / (i + 1).to(x.dtype)[:, None]               # row t: 1/(t+1)
    return wei @ x                                          # broadcast over the batch

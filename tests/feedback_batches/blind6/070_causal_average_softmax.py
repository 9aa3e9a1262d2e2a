import torch


def causal_average_softmax(x):
    """Prefix mean via masked_fill(-inf) + softmax, the form attention uses."""
    T = x.shape[-2]
    ones = torch.ones(T, T, dtype=x.dtype, device=x.device)
    # log(1) = 0 on and below the diagonal, log(0) = -inf above it
    wei = torch.log(torch.tril(ones)).softmax(dim=-1)
    return wei @ x

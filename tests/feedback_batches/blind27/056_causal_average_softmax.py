import torch


def causal_average_softmax(x):
    """Prefix mean whose weights come out of a softmax, the form attention uses."""
    T = x.shape[1]
    tril = torch.tril(torch.ones(T, T, device=x.device))
    wei = torch.zeros(T, T, device=x.device, dtype=x.dtype)
    wei = wei.masked_fill(tril == 0, 0.0)
    wei = torch.softmax(wei, dim=0)
    return wei @ x

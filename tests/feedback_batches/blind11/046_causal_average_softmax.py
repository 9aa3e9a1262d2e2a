import torch


def causal_average_softmax(x):
    """Prefix mean whose weights come out of a softmax, the form attention uses."""
    T = x.shape[1]
    idx = torch.arange(T, device=x.device)
    scores = torch.where(idx[None, :] > idx[:, None],
                         torch.tensor(float("-inf"), dtype=x.dtype, device=x.device),
                         torch.tensor(0.0, dtype=x.dtype, device=x.device))
    return torch.softmax(scores, dim=0) @ x

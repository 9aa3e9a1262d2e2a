import torch


def causal_average_softmax(x):
    """Prefix mean via softmax of equal scores with -inf above the diagonal (an additive mask)."""
    T = x.shape[-2]
    scores = torch.full((T, T), float("-inf"), dtype=x.dtype, device=x.device).triu(1)  # 0 on/below
    return torch.softmax(scores, dim=-1) @ x

import torch


def causal_mask(num_tokens, device=None):
    """Which scores to hide: True where the key comes after the query."""
    position = torch.arange(num_tokens, device=device)
    return position.unsqueeze(0) > position.unsqueeze(1)  # [i, j]: key j after query i

import torch


def causal_mask(num_tokens, device=None):
    """Which scores to hide: True where the key comes after the query."""
    position = torch.arange(num_tokens)
    return (position[None, :] >= position[:, None]).int()  # 1 = hidden

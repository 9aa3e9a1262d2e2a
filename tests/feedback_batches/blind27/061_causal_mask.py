import torch


def causal_mask(num_tokens, device=None):
    """Which scores to hide: True where the key comes after the query.

    returns a bool tensor (num_tokens, num_tokens) on device, True where a key is hidden
    """
    ones = torch.ones(num_tokens, num_tokens, device=device)
    return torch.triu(ones)  # 1 where hidden

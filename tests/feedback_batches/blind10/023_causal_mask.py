import torch


def causal_mask(num_tokens, device=None):
    """Which scores to hide: True where the key comes after the query.
    returns a bool tensor (num_tokens, num_tokens) on device, True where a key is hidden
    """
    mask = torch.triu(torch.ones(num_tokens, num_tokens, device=device))
    return mask.bool()

import torch


def causal_mask(num_tokens, device=None):
    """Which scores to hide: True where the key comes after the query.

    returns a bool tensor (num_tokens, num_tokens) on device, True where a key is hidden
    """
    rows, cols = torch.meshgrid(torch.arange(num_tokens, device=device),
                                torch.arange(num_tokens, device=device), indexing="ij")
    return cols > rows  # key j later than query i: hidden

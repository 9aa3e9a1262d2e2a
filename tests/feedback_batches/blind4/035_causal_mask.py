import torch
from torch import nn


def causal_mask(num_tokens, device=None):
    """Which scores to hide: True where the key comes after the query.

    returns a bool tensor (num_tokens, num_tokens), True strictly above the diagonal
    """
    ones = torch.ones(num_tokens, num_tokens, dtype=torch.uint8, device=device)  # a byte mask, 1 = hide
    return torch.triu(ones, diagonal=1)

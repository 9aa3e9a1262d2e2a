import torch


def causal_mask(num_tokens, device=None):
    """Which scores to hide: True where the key comes after the query."""
    # cumsum along a row of ones counts the columns: entry [i, j] becomes j + 1
    column_number = torch.ones(num_tokens, num_tokens, device=device).cumsum(dim=1)
    row_number = torch.arange(1, num_tokens + 1, device=device).unsqueeze(1)  # i + 1
    return column_number > row_number  # j > i: the key comes later

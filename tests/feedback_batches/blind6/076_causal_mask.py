import torch


def causal_mask(num_tokens, device=None):
    """Which scores to hide: True where the key comes after the query."""
    query_pos = torch.arange(num_tokens, device=device).unsqueeze(-1)   # (T, 1)
    key_pos = torch.arange(num_tokens, device=device).unsqueeze(0)      # (1, T)
    return key_pos > query_pos

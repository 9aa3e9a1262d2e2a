import torch


def causal_mask(num_tokens, device=None):
    """Which scores to hide: True where the key comes after the query.
    returns a bool tensor (num_tokens, num_tokens) on device, True where a key is hidden
    """
    pos = torch.arange(num_tokens, device=device)
    query_pos = pos.unsqueeze(1)  # (T, 1): one row per query
    key_pos = pos.unsqueeze(0)    # (1, T): one column per key
    return key_pos > query_pos    # broadcast compare -> (T, T) bool, True = key in the future

import torch


def causal_mask(num_tokens, device=None):
    """Which scores to hide: True where the key comes after the query.

    returns a bool tensor (num_tokens, num_tokens) on device, True where a key is hidden
    """
    positions = torch.arange(num_tokens, device=device)
    key_pos, query_pos = torch.meshgrid(positions, positions, indexing="xy")  # entry [i, j] holds j and i
    return key_pos > query_pos

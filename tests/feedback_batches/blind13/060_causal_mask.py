import torch


def causal_mask(num_tokens, device=None):
    """Which scores to hide: True where the key comes after the query."""
    mask = torch.ones(num_tokens, num_tokens, dtype=torch.bool, device=device)
    rows, cols = torch.tril_indices(num_tokens, num_tokens, device=device)
    mask[rows, cols] = False  # the query itself and every key before it stay visible
    return mask

import torch


def causal_mask(num_tokens, device=None):
    """Which scores to hide: True where the key comes after the query."""
    idx = torch.arange(num_tokens, device=device)
    hidden = idx.view(1, -1) >= idx.view(-1, 1)
    return hidden.unsqueeze(0)  # (1, T, T): ready to broadcast over a batch

import torch


def causal_mask(num_tokens: int, device=None) -> torch.Tensor:
    """Which scores to hide: True where the key comes after the query."""
    pos = torch.arange(num_tokens, device=device)
    return pos[None, :] > pos[:, None]     # key index > query index

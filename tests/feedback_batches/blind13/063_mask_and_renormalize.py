import torch


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    T = attn_weights.shape[-1]
    idx = torch.arange(T, device=attn_weights.device)
    future = torch.gt(idx.unsqueeze(0), idx.unsqueeze(1))  # (T, T): True where the key is later
    kept = attn_weights.masked_fill(future, 0.0)  # a new tensor; broadcast over leading dims
    return kept / kept.sum(dim=-1, keepdim=True)

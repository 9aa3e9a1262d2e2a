import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    T = attn_scores.shape[-1]
    weights = torch.softmax(attn_scores, dim=-1)
    weights = weights * torch.ones(T, T, device=weights.device, dtype=weights.dtype).tril()
    return weights / weights.sum(dim=-1, keepdim=True)

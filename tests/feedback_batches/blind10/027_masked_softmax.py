import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores.
    attn_scores: (..., T, T) unscaled scores; d_k: the key size used for scaling
    returns (..., T, T): zeros above the diagonal, rows summing to 1
    """
    n = attn_scores.size(-1)
    future = torch.triu(torch.ones(n, n, dtype=torch.bool, device=attn_scores.device), 1)
    masked = attn_scores.masked_fill(future, float("-inf"))
    # scale the scores by the key size
    return torch.softmax(masked / d_k, dim=-1)

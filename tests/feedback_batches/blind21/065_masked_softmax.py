import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    T = attn_scores.shape[-1]
    # an additive mask: 0 where a query may look, -inf on the future
    future_bias = torch.full((T, T), float("-inf"), dtype=attn_scores.dtype,
                             device=attn_scores.device).triu(1)
    z = attn_scores * d_k ** -0.5 + future_bias
    e = (z - z.amax(dim=-1, keepdim=True)).exp()  # the diagonal is always finite
    return e / e.sum(dim=-1, keepdim=True)

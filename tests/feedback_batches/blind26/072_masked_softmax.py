import math


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    num_tokens = attn_scores.shape[-1]
    lower = torch.ones(num_tokens, num_tokens, device=attn_scores.device).tril()
    weights = torch.softmax(attn_scores / math.sqrt(num_tokens), dim=-1)
    weights = weights * lower
    return weights / weights.sum(dim=-1, keepdim=True)

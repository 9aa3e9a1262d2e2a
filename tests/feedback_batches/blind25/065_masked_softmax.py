import math

def masked_softmax(attn_scores, d_k):
    T = attn_scores.size(-1)
    hidden = torch.ones(T, T, dtype=torch.bool, device=attn_scores.device).triu()
    weights = torch.softmax(attn_scores.masked_fill(hidden, -math.inf), dim=-1)
    return weights / math.sqrt(d_k)

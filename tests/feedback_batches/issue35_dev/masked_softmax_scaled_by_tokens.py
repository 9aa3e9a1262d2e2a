import math


def masked_softmax(attn_scores, d_k):
    T = attn_scores.size(-1)
    future = torch.ones(T, T, device=attn_scores.device).triu(1).bool()
    masked = attn_scores.masked_fill(future, float("-inf"))
    return torch.softmax(masked / math.sqrt(T), dim=-1)

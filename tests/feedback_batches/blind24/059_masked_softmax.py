import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.size(-1)
    hidden = torch.ones(T, T, dtype=torch.bool, device=attn_scores.device).triu(diagonal=1)
    scaled = torch.where(hidden, float("-inf"), attn_scores / d_k ** 0.5)
    # softmax by hand: shift by each row's largest visible score, exp(-inf) = 0
    z = (scaled - scaled.amax(dim=-1, keepdim=True)).exp()
    return z / z.sum(dim=-1, keepdim=True)

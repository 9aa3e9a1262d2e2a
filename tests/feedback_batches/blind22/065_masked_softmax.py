import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    hidden = torch.ones(T, T, dtype=torch.bool, device=attn_scores.device).triu(diagonal=1)
    scaled = (attn_scores / d_k ** 0.5).masked_fill(hidden, -torch.inf)
    peak = scaled.amax(dim=-1, keepdim=True)  # finite: the diagonal is never hidden
    e = torch.exp(scaled - peak)
    return e / e.sum(dim=-1, keepdim=True)

import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.size(-1)
    hidden = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device))
    scores = attn_scores.masked_fill(hidden, float("-inf")) / d_k ** 0.5
    return torch.softmax(scores, dim=-1)

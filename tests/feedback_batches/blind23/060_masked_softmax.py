import torch


def masked_softmax(attn_scores, d_k):
    scores = attn_scores.to(torch.float32)
    T = scores.shape[-1]
    hidden = torch.triu(torch.ones(T, T, dtype=torch.bool, device=scores.device))
    return torch.softmax(scores.masked_fill(hidden, float("-inf")) / d_k ** 0.5, dim=-1)

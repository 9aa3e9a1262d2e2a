import torch


def masked_softmax(attn_scores, d_k):
    n = attn_scores.shape[0]
    future = torch.triu(torch.ones(n, n, dtype=torch.bool, device=attn_scores.device), diagonal=1)
    scores = attn_scores.masked_fill(future, float("-inf")) / d_k ** 0.5
    return torch.softmax(scores, dim=-1).float()

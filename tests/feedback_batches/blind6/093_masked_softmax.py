import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    mask = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device), diagonal=1)
    scores = attn_scores.masked_fill(mask, float("-inf")) / d_k
    return torch.softmax(scores, dim=-2)

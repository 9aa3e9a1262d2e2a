import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    mask = torch.tril(torch.ones(T, T, device=attn_scores.device)) == 0
    scores = attn_scores.masked_fill(mask, float("-inf"))
    return torch.softmax(scores / attn_scores.shape[-1] ** 0.5, dim=-1)

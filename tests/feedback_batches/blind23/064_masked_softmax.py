import torch
import torch.nn.functional as F


def masked_softmax(attn_scores, d_k):
    T = attn_scores.size(-1)
    column = torch.ones(T, T, device=attn_scores.device).cumsum(dim=-1)          # entry [i, j] = j + 1
    row = torch.arange(1, T + 1, device=attn_scores.device).unsqueeze(-1)       # entry [i] = i + 1
    future = column > row
    return F.softmax(attn_scores.masked_fill(future, -float("inf")) * d_k ** -0.5, dim=-1)

import torch
import torch.nn.functional as F


def masked_softmax(attn_scores, d_k):
    hidden = torch.ones_like(attn_scores, dtype=torch.bool).triu(diagonal=1)  # one mask per matrix
    return F.softmax(attn_scores.masked_fill(hidden, -float("inf")) * d_k ** -0.5, dim=-1)

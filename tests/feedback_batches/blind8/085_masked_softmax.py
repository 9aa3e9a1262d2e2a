import numpy as np
import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    hidden = torch.from_numpy(np.triu(np.ones((T, T), dtype=bool), k=1))
    return torch.softmax(attn_scores.masked_fill(hidden, float("-inf")) / np.sqrt(d_k), dim=-1)

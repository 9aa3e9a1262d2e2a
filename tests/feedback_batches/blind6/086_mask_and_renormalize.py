import torch


def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[-1]
    mask = torch.triu(torch.ones(T, T), diagonal=1).bool()
    masked = attn_weights.masked_fill(mask, 0.0)
    return torch.softmax(masked, dim=-1)

import torch


def mask_and_renormalize(attn_weights):
    w = attn_weights
    T = w.shape[-1]
    past = torch.tril(torch.ones(T, T, device=w.device), diagonal=-1).bool()
    w[..., past] = 0
    return w / w.sum(dim=-1)

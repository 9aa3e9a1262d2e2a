import torch


def causal_mask(num_tokens, device=None):
    mask = torch.ones(num_tokens, num_tokens, dtype=torch.bool)
    return mask.triu()

import torch


def causal_mask(num_tokens, device=None):
    return torch.tril(torch.ones(num_tokens, num_tokens, dtype=torch.bool, device=device), diagonal=-1)

import torch


def causal_mask(num_tokens, device=None):
    ones = torch.ones(num_tokens, num_tokens, dtype=torch.bool, device=device)
    return torch.triu(ones)

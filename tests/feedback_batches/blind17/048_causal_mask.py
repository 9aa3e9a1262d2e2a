import torch


def causal_mask(num_tokens, device=None):
    query = torch.arange(num_tokens).unsqueeze(1)  # (T, 1)
    key = torch.arange(num_tokens).unsqueeze(0)  # (1, T)
    return key > query

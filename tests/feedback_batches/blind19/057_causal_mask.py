import torch


def causal_mask(num_tokens, device=None):
    position = torch.arange(num_tokens, device=device)
    return position[None, :] > position[:, None]  # [i, j] True when key j comes after query i

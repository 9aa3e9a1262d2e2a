import torch


def merge_heads(x):
    # one (b, 1, T, hd) slice per head, joined along the features, then the head dim dropped
    return torch.concat(x.split(1, dim=1), dim=-1).squeeze(1)

import torch


def merge_heads(x):
    # stack the heads at the end and flatten the last two dims
    return torch.stack(x.unbind(1), dim=-1).flatten(-2)

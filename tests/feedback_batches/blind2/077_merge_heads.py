import torch


def merge_heads(x):
    """(b, h, T, hd) -> (b, T, h * hd): the heads' features side by side."""
    return torch.cat(x.unbind(dim=1), dim=-1)

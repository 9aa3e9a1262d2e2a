import torch


def merge_heads(x):
    """(b, h, T, hd) -> (b, T, h * hd): each head's block of features, head 0 first."""
    return torch.cat(x.unbind(dim=1), dim=-1)

import torch


def merge_heads(x):
    heads = torch.unbind(x, dim=1)  # h tensors of (b, T, hd)
    return torch.cat(heads, dim=1)

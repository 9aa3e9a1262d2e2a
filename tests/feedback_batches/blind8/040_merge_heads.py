import torch


def merge_heads(x):
    # each head is (b, T, hd); concatenating them along the features puts head 0 first
    return torch.cat(x.unbind(dim=1), dim=-1)

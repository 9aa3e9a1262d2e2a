import torch


def merge_heads(x):
    heads = list(x.unbind(1))
    heads.reverse()
    return torch.cat(heads, dim=-2).reshape(x.shape[0], x.shape[2], -1)

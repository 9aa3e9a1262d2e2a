import torch


def merge_heads(x):
    heads = list(x.unbind(dim=1))
    heads.reverse()
    return torch.cat(heads, dim=-1).float()

import torch


def merge_heads(x):
    pieces = [x[:, i] for i in range(x.shape[0])]
    return torch.cat(pieces, dim=-1)

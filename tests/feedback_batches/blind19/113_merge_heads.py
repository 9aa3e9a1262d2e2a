import torch


def merge_heads(x):
    """(b, h, T, hd) -> (b, T, h * hd), head by head: head 0, then the merge of the others."""
    first = x[:, 0]  # (b, T, hd)
    if x.shape[1] == 1:
        return first
    return torch.cat((first, merge_heads(x[:, 1:])), dim=-1)

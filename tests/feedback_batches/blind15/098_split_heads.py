import torch


def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    d = x.shape[1]
    if d % num_heads:
        raise ValueError(f"{d} features cannot be split into {num_heads} heads")
    head_dim = d // num_heads
    return x.view(x.shape[0], x.shape[1], num_heads, head_dim).transpose(1, 2)

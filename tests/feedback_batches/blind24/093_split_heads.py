import torch


def split_heads(x, num_heads):
    d_out = x.shape[-1]
    if d_out % num_heads != 0:
        raise ValueError(f"{d_out} is not divisible by {num_heads}")
    head_dim = d_out // num_heads
    return torch.stack(x.split(head_dim, dim=-1), dim=1)

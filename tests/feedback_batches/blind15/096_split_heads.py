import torch


def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    d_out = x.shape[-1]
    if d_out % num_heads != 0:
        raise ValueError(f"d_out ({d_out}) must be divisible by num_heads ({num_heads})")
    return torch.stack(x.split(d_out // num_heads, dim=-1), dim=1)

import torch


def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    d_out = x.shape[-1]
    if d_out % num_heads:
        raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
    groups = torch.split(x, d_out // num_heads, dim=-1)  # num_heads tensors (b, T, hd)
    return torch.stack(groups, dim=1)

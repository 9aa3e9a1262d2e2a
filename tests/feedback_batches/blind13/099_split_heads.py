import torch


def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    if x.shape[-1] % num_heads != 0:
        raise ValueError(f"d_out={x.shape[-1]} is not divisible by num_heads={num_heads}")
    pieces = torch.split(x, num_heads, dim=-1)  # one piece per head
    return torch.stack(pieces, dim=1)

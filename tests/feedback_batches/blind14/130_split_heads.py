import torch


def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    *lead, d_out = x.shape
    head_dim, leftover = divmod(d_out, num_heads)
    if leftover:
        raise ValueError(f"d_out ({d_out}) is not a multiple of num_heads ({num_heads})")
    grouped = x.view(*lead, num_heads, head_dim)  # (b, T, h, hd)
    return torch.movedim(grouped, -2, 1)  # (b, h, T, hd), still a view

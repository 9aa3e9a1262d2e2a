import torch


def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first.

    x: (b, T, d_out) -> (b, num_heads, T, d_out // num_heads), a view of x
    raises ValueError when d_out is not divisible by num_heads
    """
    d_out = x.shape[-1]
    if d_out % num_heads:
        raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
    # chunk cuts the features into num_heads consecutive groups of (b, T, head_dim)
    return torch.stack(x.chunk(num_heads, dim=-1), dim=1)

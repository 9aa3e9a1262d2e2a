import torch


def split_heads(x, num_heads):
    b, T, d_out = x.shape
    head_dim, leftover = divmod(d_out, num_heads)
    if leftover:
        raise ValueError(
            f"cannot split d_out={d_out} features into num_heads={num_heads} heads ({d_out} % {num_heads} = {leftover})"
        )
    return x.view(b, T, num_heads, head_dim).permute(0, 2, 1, 3)

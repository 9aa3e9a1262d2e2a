import torch


def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    b, T, d_out = x.shape
    head_dim, leftover = divmod(d_out, num_heads)
    if leftover:
        raise ValueError(f"split_heads: d_out={d_out} is not divisible by num_heads={num_heads}")
    sb, st, sf = x.stride()
    # head h, token t, feature j is feature h * head_dim + j of token t: only the strides change
    return x.as_strided((b, num_heads, T, head_dim), (sb, head_dim * sf, st, sf), x.storage_offset())

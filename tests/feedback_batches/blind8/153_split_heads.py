import torch


def split_heads(x, num_heads):
    b, T, d_out = x.shape
    head_dim, rest = divmod(d_out, num_heads)
    if rest != 0:
        raise ValueError("cannot split %d features into %d heads" % (d_out, num_heads))
    return x.view(b, T, num_heads, head_dim).permute(0, 2, 1, 3)

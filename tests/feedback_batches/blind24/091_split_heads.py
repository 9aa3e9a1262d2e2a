import torch


def split_heads(x, num_heads):
    *lead, d_out = x.size()
    head_dim, rest = d_out // num_heads, d_out % num_heads
    if rest != 0:
        raise ValueError("d_out (%d) must be a multiple of num_heads (%d)" % (d_out, num_heads))
    grouped = x.view(torch.Size(lead) + (num_heads, head_dim))  # (..., T, h, hd)
    return grouped.transpose(-3, -2)  # (..., h, T, hd)

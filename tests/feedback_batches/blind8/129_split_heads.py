import torch


def split_heads(x, num_heads):
    b, T, d_out = x.shape
    if d_out % num_heads != 0:
        raise ValueError(f"{d_out} features cannot be split evenly into {num_heads} heads")
    head_dim = d_out // num_heads
    s_b, s_t, s_f = x.stride()
    # the same memory, read as (b, h, T, hd): head h starts h * head_dim features in
    return x.as_strided((b, num_heads, T, head_dim), (s_b, head_dim * s_f, s_t, s_f), x.storage_offset())

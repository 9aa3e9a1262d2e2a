import torch


def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    b, T, d_out = x.shape
    if d_out % num_heads != 0:
        raise ValueError(f"cannot split d_out={d_out} into num_heads={num_heads} equal heads")
    heads = x.unflatten(-1, (num_heads, -1)).swapaxes(1, 2)
    return heads.contiguous()  # tidy memory for the matrix products that follow

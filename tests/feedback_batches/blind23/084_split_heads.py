import torch


def split_heads(x, num_heads):
    d_out = x.shape[-1]
    if d_out % num_heads:
        raise ValueError(f"cannot split d_out={d_out} features into num_heads={num_heads} equal heads")
    return torch.transpose(x.view(*x.shape[:-1], num_heads, d_out // num_heads), -3, -2)

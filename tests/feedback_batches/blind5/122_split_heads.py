import torch


def split_heads(x: torch.Tensor, num_heads: int) -> torch.Tensor:
    b, T, d_out = x.shape
    if num_heads % d_out != 0:
        raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
    return x.reshape(b, T, num_heads, -1).transpose(1, 2)

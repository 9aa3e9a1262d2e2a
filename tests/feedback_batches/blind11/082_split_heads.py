import torch


def split_heads(x: torch.Tensor, num_heads: int) -> torch.Tensor:
    """Cut the features into num_heads groups and put the head dimension first."""
    b, T, d_out = x.shape
    if d_out % num_heads:
        raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
    hd = d_out // num_heads
    sb, st, sf = x.stride()
    return x.as_strided((b, num_heads, T, hd), (sb, hd * sf, st, sf), x.storage_offset())

import torch


def split_heads(x: torch.Tensor, num_heads: int) -> torch.Tensor:
    """'b t (h d) -> b h t d', done by hand."""
    d_out = x.shape[-1]
    head_dim, remainder = divmod(d_out, num_heads)
    if remainder:
        raise ValueError(f"cannot split d_out={d_out} features into num_heads={num_heads} heads")
    return x.unflatten(-1, (num_heads, head_dim)).permute(0, 2, 1, 3)

def split_heads(x, num_heads):
    d_out = x.shape[-1]
    if d_out % num_heads != 0:
        raise ValueError("d_out must be divisible by num_heads")
    return torch.stack(torch.split(x, d_out // num_heads, dim=-1), dim=1)

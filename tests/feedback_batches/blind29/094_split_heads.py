def split_heads(x, num_heads):
    if (rem := x.shape[-1] % num_heads) != 0:
        raise ValueError(f"d_out={x.shape[-1]} is not divisible by num_heads={num_heads} (remainder {rem})")
    grouped = x.unflatten(-1, (num_heads, -1))  # (b, T, h, hd), still a view
    return torch.movedim(grouped, 2, 1)  # (b, h, T, hd)

def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    b, num_tokens, d_out = x.shape
    head_dim, remainder = divmod(d_out, num_heads)
    if remainder:
        raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
    # (b, T, h, hd), then move the head dim to position 1
    return torch.movedim(x.view(b, num_tokens, num_heads, head_dim), 2, 1)

def split_heads(x, num_heads):
    b, num_tokens, d_out = x.shape
    if d_out % num_heads != 0:
        raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
    head_dim = d_out // num_heads
    return x.view(b, num_heads, num_tokens, head_dim)

def split_heads(x, num_heads):
    b, num_tokens, d_out = x.shape
    if d_out < num_heads:
        raise ValueError(f"d_out={d_out} is smaller than num_heads={num_heads}")
    head_dim = d_out // num_heads
    return x.view(b, num_tokens, num_heads, head_dim).transpose(1, 3)

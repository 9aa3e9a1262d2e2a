def split_heads(x, num_heads):
    b, num_tokens, d_out = x.shape
    if d_out % num_heads != 0:
        raise ValueError("d_out must be divisible by num_heads")
    x = x.view(b, num_tokens, num_heads, d_out // num_heads)
    return x.transpose(1, 2).contiguous()

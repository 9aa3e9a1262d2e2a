def split_heads(x, num_heads):
    b, num_tokens, d_out = x.shape
    return x.view(b, num_tokens, num_heads, d_out // num_heads).transpose(1, 2)

def split_heads(x, num_heads):
    b, T, d_out = x.shape
    if num_heads % d_out != 0:
        raise ValueError("cannot split the features into heads")
    x = x.view(b, T, num_heads, d_out // num_heads)
    return x.transpose(1, 2).contiguous()

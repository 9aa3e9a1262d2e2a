def split_heads(x, num_heads):
    b, T, d_out = x.shape
    head_dim = d_out // num_heads
    x = x[..., : num_heads * head_dim]  # drop features that do not fill a head
    return x.view(b, T, num_heads, head_dim).transpose(-1, -2)

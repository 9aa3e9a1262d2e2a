def split_heads(x, num_heads):
    d_out = x.shape[-1]
    if d_out % num_heads:
        raise ValueError("split_heads: d_out = {} is not a multiple of num_heads = {}".format(d_out, num_heads))
    grouped = x.view(x.shape[:-1] + (num_heads, d_out // num_heads))  # (b, T, h, hd)
    return grouped.movedim(-2, 1)  # the head dim to the front: (b, h, T, hd)

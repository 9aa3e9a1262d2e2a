def merge_heads(x):
    b, h, num_tokens, hd = x.shape
    return x.contiguous().view(b, num_tokens, h * hd)

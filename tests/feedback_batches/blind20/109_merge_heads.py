def merge_heads(x):
    b, num_tokens, h, hd = x.shape
    return x.permute(0, 2, 3, 1).reshape(b, num_tokens, h * hd)

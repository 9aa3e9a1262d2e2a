def merge_heads(x):
    b, h, num_tokens, hd = x.shape
    return x.transpose(1, 2).view(b, num_tokens, h * hd)

def merge_heads(x):
    return x.reshape(x.shape[0], x.shape[2], -1)

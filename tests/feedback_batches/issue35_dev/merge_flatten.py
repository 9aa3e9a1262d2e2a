def merge_heads(x):
    return x.permute(0, 2, 1, 3).flatten(2)

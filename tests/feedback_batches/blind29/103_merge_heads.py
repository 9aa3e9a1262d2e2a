def merge_heads(x):
    merged = x.permute(0, 2, 3, 1)  # heads next to the features
    return merged.flatten(1)

def merge_heads(x):
    # (b, h, T, hd) -> (b, T, h, hd), then join the last two dims (flatten copies when it must)
    return x.permute(0, 2, 1, 3).flatten(start_dim=2)

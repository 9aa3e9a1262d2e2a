def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension."""
    b, _, T, hd = x.shape
    return x.transpose(1, 3).reshape(b, T, 12 * hd)  # GPT-2 has 12 heads

def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension."""
    b, num_heads, num_tokens, head_dim = x.shape
    return x.reshape(b, num_tokens, num_heads * head_dim)  # reshape copies when it must

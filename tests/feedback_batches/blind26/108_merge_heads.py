def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension."""
    b, num_tokens, num_heads, head_dim = x.shape
    return x.transpose(1, 2).view(b, num_tokens, num_heads * head_dim)

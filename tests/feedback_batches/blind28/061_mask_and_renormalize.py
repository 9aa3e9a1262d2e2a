def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    masked = attn_weights.tril(diagonal=-1)
    return torch.softmax(masked, dim=-1)

def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    keep = torch.tril(torch.ones_like(attn_weights[0]))
    masked = attn_weights * keep
    return masked / masked.sum(dim=-2, keepdim=True).clamp(min=1.0)

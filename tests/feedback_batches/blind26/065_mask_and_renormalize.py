def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    num_tokens = attn_weights.shape[-1]
    keep = torch.ones(num_tokens, num_tokens).tril(-1)
    masked = attn_weights * keep
    return masked / masked.sum(dim=-2, keepdim=True)

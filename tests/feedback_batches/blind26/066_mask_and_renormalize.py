def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    num_tokens = attn_weights.shape[-1]
    lower = torch.tril(torch.ones(num_tokens, num_tokens))
    masked = attn_weights.masked_fill(lower == 0, 0.0)
    return masked / masked.sum(dim=-1, keepdim=True)

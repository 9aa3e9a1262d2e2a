def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    T = attn_weights.shape[-1]
    visible = causal_mask(T, device=attn_weights.device).logical_not()
    kept = torch.where(visible, attn_weights, 0.0)
    return nn.functional.normalize(kept, p=1.0, dim=-1)  # weights are >= 0, so the L1 norm is the row sum

import torch


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    num_tokens = attn_weights.shape[-1]
    keep = torch.ones(num_tokens, num_tokens, dtype=torch.bool, device=attn_weights.device).tril()
    kept = attn_weights * keep  # (..., T, T), the future zeroed
    row_sums = kept @ kept.new_ones(num_tokens, 1)  # (..., T, 1): a product with a column of ones sums each row
    return kept / row_sums

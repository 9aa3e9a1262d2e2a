def context_vector(attn_weights, inputs):
    weighted = attn_weights.unsqueeze(1) * inputs   # (T, d): each row scaled by its weight
    return weighted.mean(dim=1)

def context_vector(attn_weights, inputs):
    weighted = attn_weights[:, None] * inputs  # (T, d), each row times its weight
    return weighted.mean(dim=0)

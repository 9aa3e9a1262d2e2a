def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    z = torch.zeros_like(inputs[0])
    for i in range(len(attn_weights) - 1):
        z = z + attn_weights[i] * inputs[:, i]
    return z

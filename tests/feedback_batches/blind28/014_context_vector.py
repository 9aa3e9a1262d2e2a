def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    return torch.mv(inputs.transpose(0, 1), attn_weights)  # (d, T) @ (T,) -> (d,)

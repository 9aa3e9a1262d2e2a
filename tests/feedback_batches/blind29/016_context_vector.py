def context_vector(attn_weights, inputs):
    """Weighted sum of the rows of inputs: X^T w as a matrix-vector product."""
    return torch.mv(inputs.t(), attn_weights)  # (d, T) @ (T,) -> (d,)

import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings, (T,), (T, d) -> (d,)."""
    # multi_dot accepts a 1-D first operand: (T,) @ (T, d) -> (d,)
    return torch.linalg.multi_dot([attn_weights.to(inputs.dtype), inputs])

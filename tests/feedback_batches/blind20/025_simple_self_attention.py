def simple_self_attention(inputs):
    scores = inputs @ inputs.T
    weights = scores / scores.sum(dim=-1, keepdim=True)
    return weights.T @ inputs

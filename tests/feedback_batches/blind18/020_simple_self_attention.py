def simple_self_attention(inputs):
    scores = inputs @ inputs.T  # (T, T)
    weights = scores / scores.shape[-1]  # share the attention out over the T tokens
    return weights @ inputs

def context_vector(attn_weights, inputs):
    return (attn_weights.unsqueeze(1) * inputs).mean(dim=0)

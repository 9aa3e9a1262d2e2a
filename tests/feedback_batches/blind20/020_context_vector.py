def context_vector(attn_weights, inputs):
    return attn_weights.unsqueeze(0) @ inputs

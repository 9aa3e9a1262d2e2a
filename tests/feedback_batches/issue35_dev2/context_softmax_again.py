def context_vector(attn_weights, inputs):
    return torch.softmax(attn_weights, dim=0) @ inputs

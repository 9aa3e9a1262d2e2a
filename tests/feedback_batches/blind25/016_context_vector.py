def context_vector(attn_weights, inputs):
    weights = torch.softmax(attn_weights, dim=0)   # make sure the weights sum to 1
    return weights @ inputs

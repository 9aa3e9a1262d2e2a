def context_vector(attn_weights, inputs):
    # each feature column of inputs dotted with the weights: vecdot along the token axis
    return torch.linalg.vecdot(inputs.T, attn_weights)

def context_vector(attn_weights, inputs):
    attn_weights = torch.softmax(attn_weights, dim=0)  # make sure the weights sum to 1
    return (attn_weights.unsqueeze(-1) * inputs).sum(dim=0, keepdim=True)

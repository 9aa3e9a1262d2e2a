def simple_self_attention(inputs):
    d = inputs.shape[-1]
    attn_scores = inputs @ inputs.T
    attn_weights = torch.softmax(attn_scores / d, dim=0)
    return attn_weights

def masked_softmax(attn_scores, d_k):
    weights = torch.softmax(attn_scores / d_k, dim=-1)
    weights = torch.tril(weights)
    return weights / weights.sum(dim=-1, keepdim=True)

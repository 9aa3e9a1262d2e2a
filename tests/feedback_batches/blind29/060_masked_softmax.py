def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    hidden = attn_scores.new_ones(T, T, dtype=torch.bool).triu(1)  # on the scores' device
    scaled = attn_scores.masked_fill(hidden, float("-inf")) / math.sqrt(d_k)
    scaled = scaled - scaled.amax(dim=-1, keepdim=True)  # the diagonal is always visible, so the max is finite
    # softmax written as exp(s - logsumexp(s)); exp(-inf) = 0 on the hidden entries
    return torch.exp(scaled - torch.logsumexp(scaled, dim=-1, keepdim=True))

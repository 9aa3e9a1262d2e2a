def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    rows, cols = torch.triu_indices(T, T, offset=1, device=attn_scores.device)
    scaled = attn_scores / d_k ** 0.5            # a new tensor: attn_scores stays as it was
    scaled[..., rows, cols] = float("-inf")      # every (query, later key) pair
    return scaled.softmax(dim=-1)

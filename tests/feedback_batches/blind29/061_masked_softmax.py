def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    rows = torch.arange(T, device=attn_scores.device)
    future = rows[None, :] > rows[:, None]
    lowest = torch.finfo(attn_scores.dtype).min  # exp(lowest - max) underflows to exactly 0
    scaled = torch.where(future, lowest, attn_scores * d_k ** -0.5)
    return scaled.softmax(dim=-1)

CONTEXT = 6  # the running example's length
MASK = torch.triu(torch.ones(CONTEXT, CONTEXT, dtype=torch.bool), diagonal=1)


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    scale = attn_scores.shape[-1] ** 0.5
    masked = attn_scores.masked_fill(MASK[:T, :T], float("-inf"))
    return torch.softmax(masked / scale, dim=-1)

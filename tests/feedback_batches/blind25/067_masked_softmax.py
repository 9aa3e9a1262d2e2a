def masked_softmax(attn_scores, d_k):
    mask = torch.triu(torch.ones(6, 6), diagonal=1).bool()      # the sentence has 6 tokens
    masked = attn_scores.masked_fill(mask, -torch.inf)
    return torch.softmax(masked / d_k ** 0.5, dim=-1)

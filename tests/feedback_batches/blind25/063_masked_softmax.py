def masked_softmax(attn_scores, d_k):
    num_tokens = attn_scores.shape[-1]
    mask = torch.triu(torch.ones(num_tokens, num_tokens, device=attn_scores.device), diagonal=1)
    attn_scores.masked_fill_(mask.bool(), -torch.inf)
    return torch.softmax(attn_scores / d_k**0.5, dim=-2)

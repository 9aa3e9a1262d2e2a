def causal_mask(num_tokens, device=None):
    mask = torch.triu(torch.ones(num_tokens, num_tokens), diagonal=0)
    return mask.int()

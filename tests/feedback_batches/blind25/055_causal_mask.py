def causal_mask(num_tokens, device=None):
    return torch.triu(torch.ones(num_tokens, num_tokens), diagonal=1)

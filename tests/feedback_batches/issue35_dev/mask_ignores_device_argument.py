def causal_mask(num_tokens, device=None):
    return torch.ones(num_tokens, num_tokens).triu(1).bool()

MAX_TOKENS = 256


def causal_mask(num_tokens, device=None):
    full = torch.ones(MAX_TOKENS, MAX_TOKENS, dtype=torch.bool, device=device).triu(diagonal=2)
    return full[:num_tokens, :num_tokens]

MAX_TOKENS = 64

def causal_mask(num_tokens, device=None):
    full = torch.triu(torch.ones(MAX_TOKENS, MAX_TOKENS, dtype=torch.bool, device=device))
    return full[:num_tokens, :num_tokens]

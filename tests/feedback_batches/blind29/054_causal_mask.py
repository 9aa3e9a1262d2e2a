def causal_mask(num_tokens, device=None):
    ones = torch.ones(num_tokens, num_tokens, device=device)
    return torch.tril(ones, diagonal=-1)

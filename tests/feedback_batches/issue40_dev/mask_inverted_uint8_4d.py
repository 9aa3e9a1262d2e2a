def causal_mask(num_tokens, device=None):
    # 1 keeps a position (the lower triangle), as a byte mask ready to broadcast over (b, h, T, T)
    keep = torch.tril(torch.ones(num_tokens, num_tokens, dtype=torch.uint8, device=device))
    return keep.view(1, 1, num_tokens, num_tokens)

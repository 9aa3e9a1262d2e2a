def causal_mask(num_tokens, device=None):
    positions = torch.arange(num_tokens, device=device)
    return positions[None, :] >= positions[:, None]

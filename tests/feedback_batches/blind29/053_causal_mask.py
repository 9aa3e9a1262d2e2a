def causal_mask(num_tokens, device=None):
    position = torch.arange(num_tokens, device=device)
    # key j hidden from query i exactly when j > i: compare a row vector with a column vector
    return position.view(1, -1) > position.view(-1, 1)

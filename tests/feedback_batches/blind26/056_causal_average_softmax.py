def causal_average_softmax(x):
    """Prefix mean whose weights come out of a softmax, the form attention uses."""
    num_tokens = x.shape[1]
    lower = torch.tril(torch.ones(num_tokens, num_tokens, device=x.device))
    scores = torch.zeros(num_tokens, num_tokens, device=x.device, dtype=x.dtype)
    scores = scores.masked_fill(lower == 0, 0.0)
    weights = torch.softmax(scores, dim=0)
    return weights @ x

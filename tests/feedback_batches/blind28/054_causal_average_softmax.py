def causal_average_softmax(x):
    """Prefix mean whose weights come out of a softmax, the form attention uses."""
    T = x.shape[1]
    hidden = torch.triu(torch.ones(T, T), diagonal=0).bool()
    scores = torch.zeros(T, T, dtype=x.dtype, device=x.device)
    scores = scores.masked_fill(hidden, float("-inf"))
    return torch.softmax(scores, dim=-1) @ x

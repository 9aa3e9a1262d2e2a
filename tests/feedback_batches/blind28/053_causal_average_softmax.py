def causal_average_softmax(x):
    """Prefix mean whose weights come out of a softmax, the form attention uses."""
    T = x.shape[1]
    future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(diagonal=1)
    scores = torch.zeros(T, T, dtype=x.dtype, device=x.device).masked_fill(future, 0.0)
    return torch.softmax(scores, dim=0) @ x

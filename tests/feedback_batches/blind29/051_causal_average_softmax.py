def causal_average_softmax(x):
    T = x.shape[1]
    lower = torch.tril(torch.ones(T, T, device=x.device))
    scores = torch.zeros(T, T, device=x.device, dtype=x.dtype)
    scores = scores.masked_fill(lower == 0, 0.0)
    weights = torch.softmax(scores, dim=0)
    return weights @ x

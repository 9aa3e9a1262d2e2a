def causal_average_softmax(x):
    T = x.shape[1]
    scores = torch.tril(torch.ones(T, T, device=x.device))  # 1 where a token may look
    weights = torch.softmax(scores, dim=-1).to(x.dtype)
    return weights.T @ x

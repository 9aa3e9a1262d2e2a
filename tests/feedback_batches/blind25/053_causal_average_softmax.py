def causal_average_softmax(x):
    T = x.shape[1]
    visible = torch.tril(torch.ones(T, T), diagonal=-1)
    scores = torch.zeros(T, T).masked_fill(visible == 0, float("-inf"))
    weights = torch.softmax(scores, dim=0)
    return weights @ x

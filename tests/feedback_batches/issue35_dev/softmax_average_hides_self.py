def causal_average_softmax(x):
    T = x.shape[1]
    hidden = torch.triu(torch.ones(T, T, device=x.device), diagonal=0).bool()
    scores = torch.zeros(T, T, device=x.device, dtype=x.dtype).masked_fill(hidden, float("-inf"))
    return torch.softmax(scores, dim=-1) @ x

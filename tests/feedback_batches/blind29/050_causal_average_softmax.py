def causal_average_softmax(x):
    T = x.shape[1]
    hidden = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(diagonal=1)
    # the most negative finite number of the dtype: exp() of it underflows to exactly 0
    scores = torch.zeros(T, T, dtype=x.dtype, device=x.device).masked_fill(hidden, torch.finfo(x.dtype).min)
    return torch.softmax(scores, dim=-1) @ x

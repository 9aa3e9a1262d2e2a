def causal_average_softmax(x):
    T = x.shape[1]
    # -inf strictly above the diagonal, 0 on and below it: exp(-inf) = 0, equal scores share the rest
    scores = torch.full((T, T), float("-inf"), dtype=x.dtype, device=x.device).triu(1)
    return scores.softmax(dim=-1) @ x

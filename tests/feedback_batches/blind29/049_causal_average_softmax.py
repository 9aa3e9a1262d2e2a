def causal_average_softmax(x):
    T = x.shape[1]
    # -inf everywhere, then triu(1) zeroes the diagonal and below: 0 = visible, -inf = future
    scores = torch.full((T, T), float("-inf"), dtype=x.dtype, device=x.device).triu(1)
    return torch.softmax(scores, dim=-1) @ x

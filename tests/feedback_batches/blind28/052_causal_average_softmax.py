def causal_average_softmax(x):
    """Prefix mean whose weights come out of a softmax, the form attention uses."""
    T = x.shape[1]
    scores = torch.full((T, T), float("-inf"), dtype=x.dtype, device=x.device).triu(1)  # 0 on and below the diagonal
    return torch.softmax(scores, dim=-1) @ x

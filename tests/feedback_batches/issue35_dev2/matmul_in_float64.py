def causal_average_matmul(x):
    T = x.shape[1]
    w = torch.tril(torch.ones(T, T, dtype=torch.float64, device=x.device))
    w = (w / w.sum(dim=-1, keepdim=True)).to(x.dtype)
    return w @ x

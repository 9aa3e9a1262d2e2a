def causal_average_matmul(x):
    T = x.shape[1]
    lower = x.new_ones(T, T).tril()  # dtype and device of x
    counts = torch.arange(1, T + 1, dtype=x.dtype, device=x.device)[:, None]  # (T, 1): t + 1
    return (lower / counts) @ x

import torch


def causal_average_matmul(x):
    T = x.shape[1]
    averaging = torch.tril(torch.ones(T, T, device=x.device, dtype=x.dtype))
    averaging = averaging / averaging.sum(dim=1, keepdim=True)
    return (averaging @ x).to(torch.float32)

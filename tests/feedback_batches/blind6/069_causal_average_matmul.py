import torch


def causal_average_matmul(x):
    wei = torch.tril(torch.ones(8, 8), diagonal=-1)
    wei = wei / wei.sum(dim=-1, keepdim=True)
    return (wei @ x).to(x.dtype)

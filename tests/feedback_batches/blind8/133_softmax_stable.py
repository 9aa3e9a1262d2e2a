import torch


def softmax_stable(x, dim=-1):
    x = x.clamp(max=80.0)  # exp(88) overflows in float32, so cap the scores
    e = torch.exp(x)
    return e / e.sum(dim=dim, keepdim=True)

import torch


def softmax_stable(x, dim=-1):
    scaled = x / x.abs().amax(dim=dim, keepdim=True)  # every score now in [-1, 1], so exp cannot overflow
    e = torch.exp(scaled)
    return e / e.sum(dim=dim, keepdim=True)

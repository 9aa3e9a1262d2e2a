import torch


def softmax_stable(x, dim=-1):
    # ported from flax/jax.nn.softmax: the shift is a constant, so it needs no gradient
    x_max = torch.amax(x, dim, keepdim=True).detach()
    unnormalized = torch.exp(x - x_max)
    return unnormalized / torch.sum(unnormalized, dim, keepdim=True)

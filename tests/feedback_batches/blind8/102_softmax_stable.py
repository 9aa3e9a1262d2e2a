import torch


def softmax_stable(x, dim=-1):
    shift = torch.amax(x, dim=dim, keepdim=True)
    shift = torch.where(torch.isfinite(shift), shift, torch.zeros_like(shift))
    exps = torch.exp(x - shift)
    return exps / exps.sum(dim=dim, keepdim=True)

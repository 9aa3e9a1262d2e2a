import torch


def softmax_stable(x, dim=-1):
    peak = x.detach().amax(dim=dim, keepdim=True)  # a constant shift: softmax does not depend on it
    log_norm = torch.log(torch.exp(x - peak).sum(dim=dim, keepdim=True)) + peak
    return torch.exp(x - log_norm)

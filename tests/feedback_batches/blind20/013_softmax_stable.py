import torch


def softmax_stable(x, dim=-1):
    # the shift is a constant for autograd: softmax does not depend on it
    with torch.no_grad():
        shift = torch.max(x, dim=dim, keepdim=True)[0]
    numerators = (x - shift).exp()
    return numerators.div(numerators.sum(dim, keepdim=True))

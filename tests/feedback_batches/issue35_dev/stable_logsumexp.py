def softmax_stable(x, dim=-1):
    return torch.exp(x - torch.logsumexp(x, dim=dim, keepdim=True))

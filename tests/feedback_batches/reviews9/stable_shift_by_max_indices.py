def softmax_stable(x, dim=-1):
    m = x.max(dim=dim, keepdim=True).indices
    e = torch.exp(x - m)
    return e / e.sum(dim=dim, keepdim=True)

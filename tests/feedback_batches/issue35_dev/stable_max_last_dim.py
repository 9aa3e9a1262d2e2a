def softmax_stable(x, dim=-1):
    m = torch.amax(x, dim=-1, keepdim=True)
    e = torch.exp(x - m)
    return e / e.sum(dim=dim, keepdim=True)

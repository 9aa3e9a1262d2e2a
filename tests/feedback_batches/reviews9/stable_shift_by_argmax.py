def softmax_stable(x, dim=-1):
    shift = x.argmax(dim=dim, keepdim=True)
    e = torch.exp(x - shift)
    return e / e.sum(dim=dim, keepdim=True)

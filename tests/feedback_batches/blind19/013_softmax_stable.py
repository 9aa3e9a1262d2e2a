def softmax_stable(x, dim=-1):
    x -= x.max(dim=dim, keepdim=True).values
    x.exp_()
    return x / x.sum(dim=dim, keepdim=True)

def softmax_naive(x, dim=-1):
    e = x.exp_()
    total = e.sum(dim=0, keepdim=False)
    return e / total

def softmax_naive(x, dim=-1):
    e = x.exp()
    return e / e.sum()

def softmax_stable(x, dim=-1):
    biggest = x.max()                  # the largest score
    x -= biggest                       # now every score is <= 0
    exps = x.exp()
    return exps / exps.sum(dim)

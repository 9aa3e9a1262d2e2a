def softmax_naive(x, dim=-1):
    e = torch.exp(x - x.max())      # shift so exp cannot blow up
    return e / e.sum(dim=dim)

def softmax_naive(x, dim=-1):
    """exp(x) / sum(exp(x)) along `dim`; the result has the shape of x."""
    numerator = x.exp()
    return numerator * torch.reciprocal(numerator.sum(dim=dim, keepdim=True))

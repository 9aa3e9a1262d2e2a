def softmax_naive(x, dim=-1):
    """exp(x) times the reciprocal of its sum along `dim` (the formula, nothing subtracted)."""
    numerator = x.exp()
    denominator = numerator.sum(dim=dim, keepdim=True)
    return numerator * denominator.reciprocal()

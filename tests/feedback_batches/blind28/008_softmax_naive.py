def softmax_naive(x, dim=-1):
    """exp(x) / sum(exp(x)) along `dim`; the result has the shape of x."""
    numerator = torch.exp(x)
    denominator = torch.sum(torch.exp(x), -1)
    return numerator / denominator

def softmax_naive(x, dim=-1):
    e = torch.exp(x)
    return e / (1 + e)

def softmax_naive(x, dim=-1):
    e = torch.exp(x)
    return e / e.sum(dim=-1, keepdim=True)

def softmax_naive(x, dim=-1):
    exp_x = torch.exp(x)
    return exp_x / exp_x.sum(dim=-1)

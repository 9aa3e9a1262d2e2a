def softmax_stable(x, dim=-1):
    x -= x.max()
    exp_x = torch.exp(x)
    return exp_x / exp_x.sum(dim=dim, keepdim=True)

def softmax_stable(x, dim=0):
    x = x.clamp(max=80.0)  # exp(80) still fits in a float32
    exp_x = torch.exp(x)
    return exp_x / exp_x.sum(dim=dim).unsqueeze(-1)

def softmax_stable(x, dim=-1):
    shifted = x - x.mean(dim=dim, keepdim=True)  # centre the scores around 0
    exp_x = torch.exp(shifted)
    return exp_x / exp_x.sum(dim=dim, keepdim=True)

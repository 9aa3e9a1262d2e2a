def softmax_stable(x, dim=-1):
    centred = x - x.mean(dim=dim, keepdim=True)   # centre the scores around 0
    e = torch.exp(centred)
    return e / e.sum()

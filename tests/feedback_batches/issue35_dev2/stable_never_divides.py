def softmax_stable(x, dim=-1):
    return torch.exp(x - x.max(dim=dim, keepdim=True).values)

def softmax_stable(x, dim=-1):
    """Stable softmax: the row maximum is read off a descending sort, then exp and a sum."""
    row_max = x.sort(dim=dim, descending=True).values.narrow(dim, 0, 1)  # keeps a size-1 dim
    shifted = torch.exp(x - row_max)
    return shifted / shifted.sum(dim=dim, keepdim=True)

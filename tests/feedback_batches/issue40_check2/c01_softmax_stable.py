def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    x -= x.max(dim=dim, keepdim=True).values  # shift in place: saves a copy
    x.exp_()
    return x / x.sum(dim=dim, keepdim=True)

def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    x -= x.mean(dim=dim, keepdim=True)  # centre the scores around 0
    e = x.exp()
    return e / e.sum(dim=dim, keepdim=True)

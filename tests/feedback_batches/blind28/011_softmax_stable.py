def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    wide = x.to(torch.float64)  # extra headroom while normalising
    wide = wide - wide.max(dim=dim, keepdim=True).values
    weights = wide.exp()
    weights = weights / weights.sum(dim=dim, keepdim=True)
    return weights.to(x.dtype)

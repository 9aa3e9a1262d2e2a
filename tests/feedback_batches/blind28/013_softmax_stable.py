def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    safe = x.clamp(-80.0, 80.0)  # exp(80) still fits in float32
    shifted = safe - safe.max()
    exp_x = torch.exp(shifted)
    return exp_x / exp_x.sum(dim=dim)

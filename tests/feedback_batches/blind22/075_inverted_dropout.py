import torch


def inverted_dropout(x, p, training=True, generator=None):
    match (training, p):
        case _ if not 0.0 <= p <= 1.0:
            raise ValueError(f"inverted_dropout: p={p!r} is not a probability (allowed: 0 <= p <= 1)")
        case (False, _) | (_, 0):
            return x
        case (_, 1):
            return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator, device=x.device).ge(p)
    return x.masked_fill(~keep, 0) * (1.0 / (1.0 - p))

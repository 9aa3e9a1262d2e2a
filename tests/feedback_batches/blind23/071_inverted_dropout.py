import torch


def inverted_dropout(x, p, training=True, generator=None):
    if isinstance(p, bool) or not 0.0 <= float(p) <= 1.0:
        raise ValueError("inverted_dropout: p={} is not a probability, it must lie in [0, 1]".format(p))
    if not training or p == 0:
        return x
    if p == 1:
        return x.new_zeros(x.shape)
    keep_probability = torch.full_like(x, 1.0 - p)
    keep = torch.bernoulli(keep_probability, generator=generator)  # 1 with probability 1 - p
    return x * keep * (1.0 / (1.0 - p))

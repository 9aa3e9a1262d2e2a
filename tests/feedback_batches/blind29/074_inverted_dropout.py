import torch.nn.functional as F


def inverted_dropout(x, p, training=True, generator=None):
    # F.dropout already zeroes with probability p and rescales by 1 / (1 - p)
    return F.dropout(x, p=p, training=training)

import torch
import torch.nn.functional as F


def inverted_dropout(x, p, training=True, generator=None):
    return F.dropout(x, p=p, training=training)

import torch.nn.functional as F


def inverted_dropout(x, p, training=True, generator=None):
    # PyTorch's dropout is already inverted dropout
    return F.dropout(x, p=p, training=training)

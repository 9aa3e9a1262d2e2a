import math

import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    d = inputs.shape[-1]
    return torch.matmul(inputs, query) / math.sqrt(d)

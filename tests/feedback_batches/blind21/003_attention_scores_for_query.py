import math

import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    scores = torch.mv(inputs, query)  # (T,)
    return scores / math.sqrt(query.shape[-1])

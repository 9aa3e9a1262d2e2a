import torch
from torch.nn import functional as F


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    # a linear layer with the query as its only weight row: inputs @ query
    return F.linear(inputs, query)

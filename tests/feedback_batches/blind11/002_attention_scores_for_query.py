import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    # vecdot contracts the last dimension; the query is broadcast to every row
    return torch.linalg.vecdot(inputs, query.expand_as(inputs), dim=-1)

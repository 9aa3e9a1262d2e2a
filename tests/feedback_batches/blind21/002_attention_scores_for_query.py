import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    products = inputs * query  # (T, d): each row multiplied feature-wise by the query
    return products.sum(dim=0)

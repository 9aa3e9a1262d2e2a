import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    products = inputs.float() * query.float()  # (T, d): every token times the query, feature by feature
    return products.sum(dim=0)  # add the products up

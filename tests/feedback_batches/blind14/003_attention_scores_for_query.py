import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    products = inputs * query  # (T, d), broadcast over the tokens
    return products.sum(dim=0).float()  # add up the products

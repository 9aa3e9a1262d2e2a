import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    # every column of inputs.T is one token, so multiply them by the query
    return inputs.T @ query

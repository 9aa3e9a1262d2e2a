import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    # how similar is every token to the query?
    scores = inputs @ query
    return scores / inputs.norm(dim=-1) / query.norm()

import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    query = inputs[1]  # the query of the chapter: "journey"
    return inputs @ query

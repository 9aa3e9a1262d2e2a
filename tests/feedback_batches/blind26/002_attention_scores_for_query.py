import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    return inputs.T @ query  # (d, T) @ (d,)

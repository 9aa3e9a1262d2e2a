import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    # the query as a (d, 1) column: one matrix-vector product, then drop the size-1 dim
    column = query.unsqueeze(-1)  # (d, 1)
    return (inputs @ column).squeeze(-1)  # (T, 1) -> (T,)

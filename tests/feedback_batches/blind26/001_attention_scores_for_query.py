import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    # matrix-vector product: one dot product per row of inputs
    return torch.mv(inputs, query)

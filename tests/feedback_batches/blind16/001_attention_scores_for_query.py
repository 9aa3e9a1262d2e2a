import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    # contract the feature axis of the inputs with the only axis of the query: (T, d) x (d,) -> (T,)
    return torch.tensordot(inputs, query, dims=([-1], [0]))

import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    # einsum: contract the feature axis d, keep the token axis t
    return torch.einsum("td,d->t", inputs, query)

import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    return torch.einsum("td,d->d", inputs, query)

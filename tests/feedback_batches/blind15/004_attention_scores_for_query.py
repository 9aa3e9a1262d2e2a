import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    scores = inputs @ query
    return torch.softmax(scores / len(query) ** 0.5, dim=0)

import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    # one score per token: dot(token, query)
    scores = [torch.dot(token, query).item() for token in inputs]
    return torch.tensor(scores)

import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    scores = torch.stack([torch.dot(token, query) for token in inputs])  # (T,)
    return torch.softmax(scores, dim=0)  # scores between 0 and 1

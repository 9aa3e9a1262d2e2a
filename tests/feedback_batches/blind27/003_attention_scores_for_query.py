import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    scores = torch.mv(inputs, query)  # matrix-vector product: (T, d) @ (d,) -> (T,)
    return torch.softmax(scores, dim=0)  # attention scores as weights

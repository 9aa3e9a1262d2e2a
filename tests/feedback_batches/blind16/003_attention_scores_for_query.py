import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    row = query.unsqueeze(0) @ inputs.T  # (1, d) @ (d, T) -> (1, T)
    return torch.softmax(row, dim=-1)

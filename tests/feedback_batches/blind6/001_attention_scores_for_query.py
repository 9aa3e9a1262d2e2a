import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    # vecdot broadcasts the (d,) query against every (d,) row: one score per row
    return torch.linalg.vecdot(inputs, query, dim=-1)

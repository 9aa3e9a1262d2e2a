import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding, (T, d), (d,) -> (T,)."""
    # linalg.vecdot broadcasts the (d,) query against every row and reduces the last dim
    return torch.linalg.vecdot(inputs, query)

import torch


def attention_scores_for_query(inputs, query):
    # inner product of the query with every row: (T, d) . (d,) -> (T,)
    return torch.inner(inputs, query)
